import { decideCompaction, type ContextPolicy, type ProjectionResult } from '@threadlens/core'
import { type ContentPart } from '@threadlens/core/parts'
import { useCallback, useEffect, useRef, useState } from 'react'
import { loadChatAgent } from './load-chat-agent'
import { describeError, idle, sendEventChange, type SendState } from './send-state'
import type { ChatSession } from './use-chat-session'

export interface SendOptions {
  readonly policy: ContextPolicy
  /** The projection of the next call as the page shows it: decides whether to summarize first. */
  readonly projection: ProjectionResult | undefined
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
        const isBusy = (error: unknown) => SessionBusyError.isInstance(error)
        for await (const event of session.send(text, {
          policy: latest.current.policy,
          signal: abort.signal,
          waitForThread: true,
          ...(attached.length === 0 ? {} : { parts: attached }),
        })) {
          if (event.type === 'request-start') started = true
          const change = sendEventChange(event, { text, stopped: abort.signal.aborted, isBusy })
          if (change !== undefined) update((previous) => ({ ...previous, ...change }))
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
