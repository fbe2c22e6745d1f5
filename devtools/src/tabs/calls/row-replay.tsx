import type { Entry, Thread } from '@threadlens/core'
import { useMemo } from 'react'
import { predictCalls } from '../../view-models/cache-predictions'
import { clockTime, type TraceRow } from '../../view-models/call-trace-rows'
import { usePanel } from '../../panel/panel-context'
import { TurnDiffView } from '../shared/turn-diff-view'

import { useRowReplay, type RowReplay } from './use-row-replay'

// The hook is a module of its own: the panel's last-call line replays a call without the diff's code.
export type { RowReplay, RowReplayState } from './use-row-replay'
export { useRowReplay } from './use-row-replay'

/** The neighbours a row is compared with (see `rowNeighbours`). */
export interface RowDiffProps {
  readonly thread: Thread
  readonly row: TraceRow
  readonly replay: RowReplay
  /** The request sent just before this one: what the diff is against. */
  readonly previous: TraceRow | undefined
  /** The newest answered request before this one: what a provider's prompt cache holds. */
  readonly answered: TraceRow | undefined
  readonly entryAt: (seq: number) => Entry | undefined
}

/** How the diff names the request it compares with. */
function previousLabel(row: TraceRow, previous: TraceRow): string {
  const callId = (item: TraceRow) => (item.kind === 'call' ? item.call.callId : item.attempt.callId)
  const when = previous.record?.startedAt === undefined ? '' : `, sent ${clockTime(previous.record.startedAt)} UTC`
  if (previous.kind === 'attempt' && callId(previous) === callId(row))
    return `try ${previous.attempt.attempt} of this call (${previous.status}${when})`
  if (previous.kind === 'attempt') return `the attempt before (${previous.status}${when})`
  return `the call before (${previous.status === 'ok' ? 'answered' : previous.status}${when})`
}

function cacheInput(thread: Thread, row: TraceRow, replay: RowReplay) {
  const model = row.record?.model ?? (row.kind === 'call' ? row.call.record?.model : undefined)
  const at = row.record?.startedAt ?? (row.kind === 'call' ? thread.bySeq(row.call.firstSeq)?.createdAt : undefined) ?? 0
  const usage = row.kind === 'call' ? row.call.record?.usage : undefined
  const reported =
    usage ??
    (row.record?.inputTokens === undefined
      ? undefined
      : {
          inputTokens: row.record.inputTokens,
          ...(row.record.cachedInputTokens === undefined ? {} : { cachedInputTokens: row.record.cachedInputTokens }),
        })
  return { callId: row.key, result: replay.result, tools: replay.tools, at, model, reported }
}

/** What the provider reported reading from its cache for this row, or why there is no figure. */
function reportedRead(row: TraceRow): { readonly tokens?: number; readonly note?: string } {
  const usage = row.kind === 'call' ? row.call.record?.usage : undefined
  const tokens = usage?.cachedInputTokens ?? row.record?.cachedInputTokens
  if (tokens !== undefined) return { tokens }
  if (row.status !== 'ok')
    return { note: `no usage: the attempt ${row.status === 'aborted' ? 'was stopped' : 'failed'} before the provider reported any` }
  if (row.record === undefined && usage === undefined) return { note: 'no usage recorded for this call' }
  return {}
}

/**
 * What this request sent against the one sent just before it (another call, or the previous try of
 * this one): entries entered, left and changed form with token deltas, the first byte where the
 * cached prefix broke; and the cache reads the simulator predicts after the newest answered request.
 */
export function RowDiff({ thread, row, replay, previous, answered, entryAt }: RowDiffProps) {
  const fallbackPolicy = usePanel().policy
  const before = useRowReplay(thread, previous, fallbackPolicy)
  const cacheBase = useRowReplay(thread, answered === previous ? undefined : answered, fallbackPolicy)
  const base = answered === previous ? before : cacheBase
  const predicted = useMemo((): { readonly tokens?: number; readonly note?: string } => {
    if (answered === undefined || base.status !== 'ready') return {}
    const inputs = [cacheInput(thread, answered, base.replay), cacheInput(thread, row, replay)]
    // A provider's cache is per model: with one of the two models unknown, a prediction would be a guess.
    if ((inputs[0]?.model === undefined) !== (inputs[1]?.model === undefined))
      return { note: `no prediction: the model of ${inputs[0]?.model === undefined ? 'the answered call before' : 'this call'} is not recorded` }
    const tokens = predictCalls(inputs, (text) => replay.counter.countCached(text))[1]?.predicted.readTokens
    return tokens === undefined ? {} : { tokens }
  }, [thread, answered, base, row, replay])
  if (previous === undefined)
    return (
      <p className="tl-muted" data-testid="call-diff-none">
        The thread&apos;s first request: nothing to compare with.
      </p>
    )
  if (before.status === 'loading' || before.status === 'none') return <p className="tl-muted">loading the request before…</p>
  if (before.status === 'unavailable')
    return (
      <p className="tl-muted" data-testid="call-diff-none">
        No diff: the request before was {before.reason}.
      </p>
    )
  if (before.status === 'failed')
    return (
      <p className="tl-error" data-testid="call-diff-none">
        No diff: the request before could not be rebuilt ({String(before.error)}).
      </p>
    )
  const reported = reportedRead(row)
  return (
    <TurnDiffView
      before={before.replay.result}
      after={replay.result}
      entryAt={entryAt}
      beforeLabel={previousLabel(row, previous)}
      testId="call-diff"
      cache={{
        ...(predicted.tokens === undefined ? {} : { predictedReadTokens: predicted.tokens }),
        ...(predicted.note === undefined ? {} : { predictedNote: predicted.note }),
        ...(reported.tokens === undefined ? {} : { reportedReadTokens: reported.tokens }),
        ...(reported.note === undefined ? {} : { reportedNote: reported.note }),
      }}
    />
  )
}
