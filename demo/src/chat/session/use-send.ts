import { decideCompaction, type ContextPolicy, type ProjectionResult } from '@threadlens/core'
import { type ContentPart } from '@threadlens/core/parts'
import { useCallback, useEffect, useRef, useState } from 'react'
import { loadChatAgent } from './load-chat-agent'
import type { ChatSession } from './use-chat-session'

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

const idle: SendState = { phase: 'idle', pending: undefined, error: undefined, notice: undefined }

export interface SendOptions {
  readonly policy: ContextPolicy
  /** The projection of the next call as the page shows it: decides whether to summarize first. */
  readonly projection: ProjectionResult | undefined
}

function describeError(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: String(error) }
}

/**
 * Sends through the session and turns its events into what the chat shows. When another tab
 * drives the thread the message waits (with a notice) and goes out as soon as that tab is done.
 * A send before the session has loaded shows the message as pending at once and goes out when it has.
 */
export function useSend({ session, ready }: ChatSession, options: SendOptions) {
  const [state, setState] = useState<SendState>(idle)
  const current = useRef(session)
  const controller = useRef<AbortController | undefined>(undefined)
  const latest = useRef(options)
  latest.current = options

  useEffect(() => {
    const previous = current.current
    current.current = session
    // The first session (the sending part just loaded) takes over a send already waiting for it.
    if (previous !== undefined) setState(idle)
  }, [session])

  const send = useCallback(
    async (text: string, parts?: () => Promise<readonly ContentPart[]>): Promise<'sent' | 'cancelled'> => {
      const abort = new AbortController()
      controller.current = abort
      let active = session
      // Events of a session the user has left (another thread opened) no longer change the page.
      const update = (change: (previous: SendState) => SendState) => {
        if (current.current === active) setState(change)
      }
      update(() => ({ phase: 'running', pending: { text, requestId: undefined }, error: undefined, notice: undefined }))
      try {
        if (active === undefined) {
          active = await ready()
          current.current = active
          if (abort.signal.aborted) return 'cancelled'
        }
        const { SessionBusyError } = await loadChatAgent()
        const session = active
        const { policy, projection } = latest.current
        if (projection !== undefined && decideCompaction(projection, policy).action === 'compact') {
          update((previous) => ({ ...previous, notice: 'Summarizing older entries before the call…' }))
          await session.compactNow(policy)
          update((previous) => ({ ...previous, notice: 'Older entries left the context window: they were summarized first.' }))
        }
        // Another tab driving this thread is waited for (the session queues for its lock), not polled.
        let started = false
        // Attachments are stored only now, once the send is on its way.
        const attached = parts === undefined ? [] : await parts()
        for await (const event of session.send(text, {
          policy: latest.current.policy,
          signal: abort.signal,
          waitForThread: true,
          ...(attached.length === 0 ? {} : { parts: attached }),
        })) {
          if (event.type === 'lock-wait') update((previous) => ({ ...previous, phase: 'waiting' }))
          else if (event.type === 'request-start') {
            started = true
            update((previous) => ({ ...previous, phase: 'running', pending: { text, requestId: event.requestId } }))
          } else if (event.type === 'compaction-end')
            update((previous) => ({ ...previous, notice: `Summarized entries #${event.fromSeq}–#${event.toSeq} to fit the budget.` }))
          else if (event.type === 'max-iterations')
            update((previous) => ({ ...previous, notice: `Stopped after ${event.iterations} model calls in one request.` }))
          else if (event.type === 'error') {
            if (abort.signal.aborted) update((previous) => ({ ...previous, notice: 'Stopped. What was streamed so far is kept in the thread.' }))
            else if (SessionBusyError.isInstance(event.error))
              update((previous) => ({ ...previous, notice: 'A request is already running in this tab.' }))
            else update((previous) => ({ ...previous, error: describeError(event.error) }))
          }
        }
        // Stopped while waiting: the message never reached the thread, so it goes back to the composer.
        return started || !abort.signal.aborted ? 'sent' : 'cancelled'
      } catch (error) {
        if (abort.signal.aborted) return 'cancelled'
        update((previous) => ({ ...previous, error: describeError(error) }))
        return 'sent'
      } finally {
        update((previous) => ({ ...previous, phase: 'idle', pending: undefined }))
        if (controller.current === abort) controller.current = undefined
      }
    },
    [session, ready],
  )

  /** Stops the request in progress, or stops waiting for the other tab. */
  const stop = useCallback(() => {
    controller.current?.abort()
    session?.abort()
  }, [session])

  const dismiss = useCallback(() => setState((previous) => ({ ...previous, error: undefined, notice: undefined })), [])

  return { state, send, stop, dismiss }
}
