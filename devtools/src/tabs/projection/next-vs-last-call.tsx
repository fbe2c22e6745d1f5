import type { ProjectionResult, TokenCounter } from '@threadlens/core'
import { useThread } from '@threadlens/react'
import { lazy, Suspense } from 'react'
import { usePanel } from '../../panel/panel-context'

// The diff's code loads once there is a call to compare with: a thread without one (a first visit) does not download it.
const NextVsLastCallBody = lazy(() => import('./next-vs-last-call-body'))

/**
 * The next call against the thread's last recorded call, folded to one line: what will change
 * when the app sends now (entries in, out, reshaped; whether the cached prefix survives).
 */
export function NextVsLastCall({ next, counter }: { readonly next: ProjectionResult; readonly counter: TokenCounter }) {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  if (thread === undefined || thread.index.seqsByCallId.size === 0) return null
  return (
    <Suspense fallback={null}>
      <NextVsLastCallBody next={next} counter={counter} thread={thread} />
    </Suspense>
  )
}
