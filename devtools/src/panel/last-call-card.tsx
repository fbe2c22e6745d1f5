import { useCallAttempts, useThread } from '@threadlens/react'
import { lazy, Suspense } from 'react'
import { usePanel } from './panel-context'

// The line's code (the calls' figures, the replay, the words) loads once the thread has a call or a
// failed attempt: a thread without one (a first visit) does not download it.
const LastCallBody = lazy(() => import('./last-call-body'))

/**
 * The last call at a glance, at the top of the panel: how it ended, what it sent against the budget,
 * what it left out and mainly why, the cache, cost and latency. One line on a phone (the whole of it
 * in the tooltip and for screen readers); the Calls tab has the rest.
 */
export function LastCallCard() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const attempts = useCallAttempts(panel.threadId).value
  if (thread === undefined || (thread.index.seqsByCallId.size === 0 && attempts.length === 0)) return null
  return (
    <Suspense fallback={null}>
      <LastCallBody thread={thread} />
    </Suspense>
  )
}
