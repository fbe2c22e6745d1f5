import type { ContextPolicy, ProjectionResult, SessionSnapshot, TokenCounter, ToolSchema } from '@threadlens/core'
import type { CallHashes } from '@threadlens/core/calls'
import type { Tool } from '../tools/define-tool'
import type { SessionOptions } from './session-options'
import type { ThreadMirror } from './thread-mirror'

/** One request (a send or a resume) while it runs. */
export interface RequestState {
  readonly requestId: string
  readonly policy: ContextPolicy
  readonly controller: AbortController
  iteration: number
}

/** What one model call sent: enough to write its record and replay it. */
export interface SentCall {
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly tools: readonly ToolSchema[]
  readonly memory: string | undefined
  readonly projection: ProjectionResult
  readonly basisSeq: number
  readonly hashes: CallHashes
}

/** What the session's parts (loop, call step, context fitting, tool runs, call records) share of it. */
export interface SessionInternals {
  readonly threadId: string
  readonly options: SessionOptions
  readonly mirror: ThreadMirror
  readonly tools: ReadonlyMap<string, Tool<unknown>>
  readonly toolSchemas: readonly ToolSchema[]
  snapshot(): SessionSnapshot
  update(changes: Partial<SessionSnapshot>): void
  createId(): string
  now(): number
  counterFor(policy: ContextPolicy): Promise<TokenCounter>
}
