import type { CallRecord, Thread } from '@threadlens/core'
import type { ThreadCall } from '@threadlens/core/calls'
import { useMemo } from 'react'
import { CopyRequest } from '../../components/copy-request'
import { clockTime, countDifference, duration, rowSubtitle, stepLines, traceLabel, type TraceRow } from '../../view-models/call-trace-rows'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { ProjectedMessages } from '../shared/projected-messages'
import { RowDiff, useRowReplay, type RowReplay } from './row-replay'

/**
 * A call that answered: how it was replayed, what it sent and what the provider reported, its
 * timing and steps, and what it sent against the request before it.
 */
export function CallDetail({
  thread,
  row,
  call,
  previous,
  answered,
}: {
  readonly thread: Thread
  readonly row: TraceRow
  readonly call: ThreadCall
  readonly previous: TraceRow | undefined
  readonly answered: TraceRow | undefined
}) {
  const panel = usePanel()
  const replay = useRowReplay(thread, row, panel.policy)
  const entryAt = useMemo(() => (seq: number) => thread.bySeq(seq), [thread])
  if (replay.status === 'loading' || replay.status === 'none') return <p className="tl-muted">loading the token counter…</p>
  if (replay.status === 'unavailable')
    return (
      <p className="tl-muted">
        Call {call.callId} was {replay.reason}.
      </p>
    )
  if (replay.status === 'failed') return <p className="tl-error">Replay failed: {String(replay.error)}</p>
  const current = replay.replay
  const usage = call.record?.usage
  const stored = call.record?.stored
  return (
    <section style={{ overflow: 'auto' }} data-testid="call-detail" data-call-id={call.callId} aria-label={`call ${call.callId}`}>
      <p className="tl-h tl-detail-title">{traceLabel(row, entryAt)}</p>
      <p className="tl-muted tl-detail-subtitle">{rowSubtitle(row, entryAt)}</p>
      <ReplayFacts replay={current} />
      <p className="tl-muted">
        sent {current.result.messages.length} messages · {formatNumber(current.result.meta.tokens.total)} tokens (counted)
        {usage === undefined
          ? ' · usage not recorded'
          : ` · usage: ${formatNumber(usage.inputTokens)} in, ${formatNumber(usage.outputTokens)} out${usage.cachedInputTokens === undefined ? '' : `, ${formatNumber(usage.cachedInputTokens)} cached`}`}
        {call.record?.stopReason === undefined ? '' : ` · stop: ${call.record.stopReason}`}
        {call.record?.model === undefined ? '' : ` · model ${call.record.model}`}
      </p>
      {stored === undefined ? null : <StoredCallFacts stored={stored} />}
      <RowDiff thread={thread} row={row} replay={current} previous={previous} answered={answered} entryAt={entryAt} />
      <ProjectedMessages result={current.result} />
    </section>
  )
}

/** How the call was rebuilt (with its recorded policy or the panel's), whether that matches what was sent, and a copy of the request. */
function ReplayFacts({ replay }: { readonly replay: RowReplay }) {
  return (
    <div className="tl-row">
      <span
        className={`tl-badge ${replay.policySource === 'recorded' ? 'tl-ok' : 'tl-warn'}`}
        title={
          replay.policySource === 'recorded'
            ? 'replayed with the policy the call recorded: exact'
            : 'no policy recorded: replayed with the panel policy'
        }
      >
        {replay.policySource === 'recorded' ? 'exact replay (recorded policy)' : `replayed with ${replay.policyName ?? 'the panel policy'}`}
      </span>
      {replay.verified === undefined ? null : (
        <span className={`tl-badge ${replay.verified ? 'tl-ok' : 'tl-danger'}`} data-testid="replay-verified" data-verified={replay.verified}>
          {replay.verified ? 'matches the recorded messages hash' : 'differs from what was recorded'}
        </span>
      )}
      <CopyRequest result={replay.result} />
    </div>
  )
}

/** What the stored record adds: when it was sent, how long it took, its attempts and counts, and the model steps of one request. */
function StoredCallFacts({ stored }: { readonly stored: CallRecord }) {
  return (
    <>
      <p className="tl-muted" data-testid="call-timing">
        sent {clockTime(stored.startedAt)} UTC · first token {duration(stored.firstTokenMs)} · took {duration(stored.durationMs)} ·{' '}
        {stored.attempts ?? 1} attempt
        {(stored.attempts ?? 1) === 1 ? '' : 's'}
        {stored.localInputTokens === undefined
          ? ''
          : ` · local ${formatNumber(stored.localInputTokens)} vs reported ${stored.inputTokens === undefined ? '—' : formatNumber(stored.inputTokens)}`}
        {countDifference(stored) === undefined ? '' : ` (${countDifference(stored)})`}
        {stored.cacheWriteInputTokens === undefined ? '' : ` · ${formatNumber(stored.cacheWriteInputTokens)} written to cache`}
      </p>
      {stored.steps === undefined ? null : (
        <div className="tl-muted" data-testid="call-steps">
          {stored.steps.length} model steps in this one request (tool results went straight back to the model):
          <ol style={{ margin: 0 }}>
            {stepLines(stored).map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ol>
        </div>
      )}
    </>
  )
}
