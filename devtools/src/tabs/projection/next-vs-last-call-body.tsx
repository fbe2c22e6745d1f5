import type { ProjectionResult, Thread, TokenCounter } from '@threadlens/core'
import { replayThreadCall, threadCalls } from '@threadlens/core/calls'
import { createSessionSource } from '@threadlens/client'
import { useSession } from '@threadlens/react'
import { useMemo } from 'react'
import { formatNumber } from '../../view-models/meter-parts'
import { turnDiff } from '../../view-models/turn-diff'
import { usePanel } from '../../panel/panel-context'
import { signed, TurnDiffView } from '../shared/turn-diff-view'

/** The comparison itself, loaded once the thread has a call to compare with (see `NextVsLastCall`). */
const noSession = createSessionSource({ status: 'idle', threadId: '' })

export default function NextVsLastCallBody({
  next,
  counter,
  thread,
}: {
  readonly next: ProjectionResult
  readonly counter: TokenCounter
  readonly thread: Thread
}) {
  const panel = usePanel()
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const calls = useMemo(() => threadCalls(thread, records), [thread, records])
  const last = calls[calls.length - 1]
  const compared = useMemo(() => {
    if (last === undefined) return undefined
    try {
      // One counter on both sides, so token deltas compare like with like.
      const before = replayThreadCall(thread, last, { fallbackPolicy: panel.policy, counter }).projection
      return { before, diff: turnDiff(before, next) }
    } catch {
      return undefined
    }
  }, [thread, last, panel.policy, counter, next])
  const entryAt = useMemo(() => (seq: number) => thread.bySeq(seq), [thread])
  if (compared === undefined || last === undefined) return null
  const { diff } = compared
  return (
    <details className="tl-card" data-testid="next-vs-last">
      <summary>
        <strong>Next call vs the last one</strong>{' '}
        <span className="tl-muted">
          (call {last.ordinal + 1} of {calls.length}): {signed(diff.tokenDelta)} tokens ({formatNumber(diff.tokensBefore)} →{' '}
          {formatNumber(diff.tokensAfter)}) · {diff.entered} entering · {diff.left} leaving · {diff.changed} changing form ·{' '}
          {diff.prefix.byte === undefined
            ? 'the provider’s cache keeps matching'
            : `the provider’s cache stops matching at message ${(diff.prefix.messageIndex ?? 0) + 1}`}
        </span>
      </summary>
      <TurnDiffView before={compared.before} after={next} entryAt={entryAt} beforeLabel="the last call" testId="next-vs-last-diff" diff={diff} />
    </details>
  )
}
