export type { ThreadlensClientOptions } from './threadlens-client'
export { ThreadlensClient, createThreadlensClient } from './threadlens-client'
export type { LiveThread, ThreadSnapshot } from './live/live-thread'
export type { LiveMemory, MemorySnapshot } from './live/live-memory'
export type { CallLogSnapshot, LiveCallLog } from './live/live-call-log'

export type { ProjectOptions, ProjectionOutcome } from './projection/projection-cache'
export { cachedProjection } from './projection/projection-cache'
export type { CounterSnapshot } from './projection/token-counters'
export { tokenCounters } from './projection/token-counters'

export type { SessionSourceController } from './session/session-source'
export { createSessionSource } from './session/session-source'
