import { threadCalls } from '@threadlens/core/calls'
import { createSessionSource } from '@threadlens/client'
import { useCallAttempts, useSession, useThread } from '@threadlens/react'
import { useMemo, useState, type CSSProperties } from 'react'
import { traceRows, rowNeighbours, type TraceRow } from '../../view-models/call-trace-rows'
import { AttemptDetail } from './attempt-detail'
import { CallDetail } from './call-detail'
import { CalibrationList, TraceList } from './calls-trace'
import { usePanel } from '../../panel/panel-context'
import { CachePredictions } from './cache-predictions'
import { ContextChart } from './context-chart'

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
