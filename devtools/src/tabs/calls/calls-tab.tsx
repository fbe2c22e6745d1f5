import type { Thread } from '@threadlens/core'
import { threadCalls, type ThreadCall } from '@threadlens/core/calls'
import { createSessionSource } from '@threadlens/client'
import { useCallAttempts, useSession, useThread } from '@threadlens/react'
import { useMemo, useState, type CSSProperties } from 'react'
import { CopyRequest } from '../../components/copy-request'
import {
  traceRows,
  clockTime,
  countDifference,
  duration,
  rowNeighbours,
  rowSubtitle,
  stepLines,
  traceLabel,
  type TraceRow,
} from '../../view-models/call-trace-rows'
import { AttemptDetail } from './attempt-detail'
import { CalibrationList, TraceList } from './calls-trace'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { CachePredictions } from './cache-predictions'
import { ContextChart } from './context-chart'
import { RowDiff, useRowReplay } from './row-replay'
import { ProjectedMessages } from '../shared/projected-messages'

const noSession = createSessionSource({ status: 'idle', threadId: '' })

/**
 * Every attempt of every model call of the thread, answered or not (the thread's records and the
 * call log's failed, retried and aborted attempts), each replayed and diffed with the request sent
 * before it; per model, the token calibration in use.
 */
export function CallsTab() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const attempts = useCallAttempts(panel.threadId).value
  const calls = useMemo(() => (thread === undefined ? [] : threadCalls(thread, records)), [thread, records])
  const rows = useMemo(() => traceRows(calls, attempts), [calls, attempts])
  const [selected, setSelected] = useState<string | undefined>(undefined)
  const entryAt = useMemo(() => (seq: number) => thread?.bySeq(seq), [thread])
  if (thread === undefined) return <p className="tl-muted">loading the thread…</p>
  if (rows.length === 0) {
    return (
      <div>
        <p className="tl-muted" data-testid="calls-empty">
          No model calls recorded: calls are entries that share refs.callId (the agent writes them); failed attempts come from the call log.
        </p>
        <CalibrationList />
      </div>
    )
  }
  const found = rows.findIndex((item) => item.key === selected)
  const position = found === -1 ? rows.length - 1 : found
  const row = rows[position] as TraceRow
  const neighbours = rowNeighbours(rows, position)
  const failures = rows.filter((item) => item.status !== 'ok').length
  return (
    <div className="tl-split tl-calls">
      <div className="tl-calls-list" style={{ '--tl-rows': rows.length } as CSSProperties}>
        <p className="tl-muted" style={{ margin: 0 }} data-testid="calls-count">
          {calls.length} calls{attempts.length === 0 ? '' : ` · ${rows.length} attempts, ${failures} not answered`}
        </p>
        <TraceList rows={rows} selected={row} onSelect={setSelected} entryAt={entryAt} />
        <ContextChart rows={rows} entries={thread.entries} selected={row.key} onSelect={setSelected} />
        <CalibrationList />
        <CachePredictions thread={thread} calls={calls} />
      </div>
      {row.kind === 'call' ? (
        <CallDetail key={row.key} thread={thread} row={row} call={row.call} {...neighbours} />
      ) : (
        <AttemptDetail key={row.key} thread={thread} row={row} attempt={row.attempt} {...neighbours} />
      )}
    </div>
  )
}

function CallDetail({
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
      <div className="tl-row">
        <span
          className={`tl-badge ${current.policySource === 'recorded' ? 'tl-ok' : 'tl-warn'}`}
          title={
            current.policySource === 'recorded'
              ? 'replayed with the policy the call recorded: exact'
              : 'no policy recorded: replayed with the panel policy'
          }
        >
          {current.policySource === 'recorded' ? 'exact replay (recorded policy)' : `replayed with ${current.policyName ?? 'the panel policy'}`}
        </span>
        {current.verified === undefined ? null : (
          <span className={`tl-badge ${current.verified ? 'tl-ok' : 'tl-danger'}`} data-testid="replay-verified" data-verified={current.verified}>
            {current.verified ? 'matches the recorded messages hash' : 'differs from what was recorded'}
          </span>
        )}
        <CopyRequest result={current.result} />
      </div>
      <p className="tl-muted">
        sent {current.result.messages.length} messages · {formatNumber(current.result.meta.tokens.total)} tokens (counted)
        {usage === undefined
          ? ' · usage not recorded'
          : ` · usage: ${formatNumber(usage.inputTokens)} in, ${formatNumber(usage.outputTokens)} out${usage.cachedInputTokens === undefined ? '' : `, ${formatNumber(usage.cachedInputTokens)} cached`}`}
        {call.record?.stopReason === undefined ? '' : ` · stop: ${call.record.stopReason}`}
        {call.record?.model === undefined ? '' : ` · model ${call.record.model}`}
      </p>
      {stored === undefined ? null : (
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
      )}
      {stored?.steps === undefined ? null : (
        <div className="tl-muted" data-testid="call-steps">
          {stored.steps.length} model steps in this one request (tool results went straight back to the model):
          <ol style={{ margin: 0 }}>
            {stepLines(stored).map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ol>
        </div>
      )}
      <RowDiff thread={thread} row={row} replay={current} previous={previous} answered={answered} entryAt={entryAt} />
      <ProjectedMessages result={current.result} />
    </section>
  )
}
