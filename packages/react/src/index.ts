export type { ThreadlensProviderProps } from './client/threadlens-context'
export { ThreadlensProvider, useThreadlensClient, useOptionalThreadlensClient } from './client/threadlens-context'

export { useThread } from './threads/use-thread'
export type { ProjectionSnapshot, UseProjectionOptions } from './projection/use-projection'
export { useProjection } from './projection/use-projection'
export { useTokenCounter } from './projection/use-token-counter'
export { useMemory } from './memory/use-memory'

export { useSession } from './session/use-session'
export type { RetryCountdown } from './session/use-retry-countdown'
export { useRetryCountdown } from './session/use-retry-countdown'

export { useCallAttempts, useCalibrations } from './calls/use-call-log'

export { useAttachmentURL } from './attachments/use-attachment-url'

export type { ThreadlensErrorBoundaryProps, ThreadlensErrorFallbackProps } from './errors/error-boundary'
export { ThreadlensErrorBoundary, ThreadlensErrorFallback } from './errors/error-boundary'
