import type { ProjectionResult, TokenCounter } from '@threadlens/core'
import { createSessionSource, replayThreadCall, threadCalls } from '@threadlens/client'
import { useSession, useThread } from '@threadlens/react'
import { useMemo } from 'react'
import { formatNumber } from '../model/meter-parts'
import { turnDiff } from '../model/turn-diff'
import { usePanel } from '../panel/panel-context'
import { signed, TurnDiffView } from './turn-diff-view'

const noSession = createSessionSource({ status: 'idle', threadId: '' })

/**
 * The next call against the thread's last recorded call, folded to one line: what will change
 * when the app sends now (entries in, out, reshaped; whether the cached prefix survives).
 */
export function NextVsLastCall({ next, counter }: { readonly next: ProjectionResult; readonly counter: TokenCounter }) {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const calls = useMemo(() => (thread === undefined ? [] : threadCalls(thread, records)), [thread, records])
  const last = calls[calls.length - 1]
  const compared = useMemo(() => {
    if (thread === undefined || last === undefined) return undefined
    try {
      // One counter on both sides, so token deltas compare like with like.
      const before = replayThreadCall(thread, last, { fallbackPolicy: panel.policy, counter }).result
      return { before, diff: turnDiff(before, next) }
    } catch {
      return undefined
    }
  }, [thread, last, panel.policy, counter, next])
  const entryAt = useMemo(() => (seq: number) => thread?.bySeq(seq), [thread])
  if (compared === undefined || last === undefined) return null
  const { diff } = compared
  return (
    <details className="tl-card" data-testid="next-vs-last">
      <summary>
        <strong>Next call vs the last one</strong>{' '}
        <span className="tl-muted">
          (call {last.ordinal + 1} of {calls.length}): {signed(diff.tokenDelta)} tokens ({formatNumber(diff.tokensBefore)} → {formatNumber(diff.tokensAfter)}) · {diff.entered} entering · {diff.left} leaving ·{' '}
          {diff.changed} changing form · {diff.prefix.byte === undefined ? 'the provider’s cache keeps matching' : `the provider’s cache stops matching at message ${(diff.prefix.messageIndex ?? 0) + 1}`}
        </span>
      </summary>
      <TurnDiffView before={compared.before} after={next} entryAt={entryAt} beforeLabel="the last call" testId="next-vs-last-diff" diff={diff} />
    </details>
  )
}
