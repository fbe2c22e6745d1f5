import type { SessionEvent } from '@threadlens/agent'

export interface SendState {
  /** `waiting` while another tab drives the thread; `running` from the click to the end of the request. */
  readonly phase: 'idle' | 'running' | 'waiting'
  /** The message being sent until the thread holds it (its `requestId` once known). */
  readonly pending: { readonly text: string; readonly requestId: string | undefined } | undefined
  /** The last request's failure; the thread keeps everything up to it. */
  readonly error: { readonly name: string; readonly message: string } | undefined
  /** What just happened besides the reply (a summary written, a stop). */
  readonly notice: string | undefined
}

export const idle: SendState = { phase: 'idle', pending: undefined, error: undefined, notice: undefined }

export function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: String(error) }
}

/** Where one event of a send is read: the message sent, whether the user stopped it, and how a busy session's error is told apart. */
export interface SendEventContext {
  readonly text: string
  readonly stopped: boolean
  isBusy(error: unknown): boolean
}

/** What one event of the session's send changes in what the chat shows; `undefined` when it changes nothing. */
export function sendEventChange(event: SessionEvent, context: SendEventContext): Partial<SendState> | undefined {
  if (event.type === 'lock-wait') return { phase: 'waiting' }
  if (event.type === 'request-start') return { phase: 'running', pending: { text: context.text, requestId: event.requestId } }
  if (event.type === 'compaction-end') return { notice: `Summarized entries #${event.fromSeq}–#${event.toSeq} to fit the budget.` }
  if (event.type === 'max-iterations') return { notice: `Stopped after ${event.iterations} model calls in one request.` }
  if (event.type !== 'error') return undefined
  if (context.stopped) return { notice: 'Stopped. What was streamed so far is kept in the thread.' }
  if (context.isBusy(event.error)) return { notice: 'A request is already running in this tab.' }
  return { error: describeError(event.error) }
}
