import type { Thread } from '@threadlens/core'
import { type CallAttempt } from '@threadlens/core/calls'
import { useMemo } from 'react'
import { CopyRequest } from '../../components/copy-request'
import { clockTime, countDifference, duration, rowSubtitle, type TraceRow } from '../../view-models/call-trace-rows'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { ProjectedMessages } from '../shared/projected-messages'
import { RowDiff, useRowReplay } from './row-replay'

const statusWords: Readonly<Record<CallAttempt['status'], string>> = {
  retried: 'failed, then tried again',
  failed: 'failed: the call ended with this error',
  aborted: 'stopped before it answered',
}

export interface AttemptDetailProps {
  readonly thread: Thread
  readonly row: TraceRow
  readonly attempt: CallAttempt
  readonly previous: TraceRow | undefined
  readonly answered: TraceRow | undefined
}

/**
 * An attempt that did not answer: its error, the exact messages it sent (rebuilt from the thread and
 * its record), and what it sent against the request before it.
 */
export function AttemptDetail({ thread, row, attempt, previous, answered }: AttemptDetailProps) {
  const panel = usePanel()
  const record = attempt.record
  const state = useRowReplay(thread, row, panel.policy)
  const replay = state.status === 'ready' ? state.replay : undefined
  const entryAt = useMemo(() => (seq: number) => thread.bySeq(seq), [thread])
  const difference = countDifference(record)
  return (
    <section style={{ overflow: 'auto' }} data-testid="attempt-detail" data-attempt-id={attempt.id} aria-label={`attempt ${attempt.id}`}>
      <div className="tl-row">
        <strong>try {attempt.attempt}</strong>
        <span className={`tl-badge ${attempt.status === 'failed' ? 'tl-danger' : 'tl-warn'}`} data-testid="attempt-status">
          {attempt.status}
        </span>
        <span className="tl-muted">{statusWords[attempt.status]}</span>
        {replay?.verified === undefined ? null : (
          <span className={`tl-badge ${replay.verified ? 'tl-ok' : 'tl-danger'}`} data-testid="replay-verified" data-verified={replay.verified}>
            {replay.verified ? 'matches the recorded messages hash' : 'differs from what was recorded'}
          </span>
        )}
        {replay === undefined ? null : <CopyRequest result={replay.result} />}
      </div>
      <p className="tl-muted tl-detail-subtitle">{rowSubtitle(row, entryAt)}</p>
      {attempt.error === undefined ? null : (
        <p className="tl-error" data-testid="attempt-error">
          {attempt.error.name}
          {attempt.error.status === undefined ? '' : ` (HTTP ${attempt.error.status})`}: {attempt.error.message}
        </p>
      )}
      <p className="tl-muted" data-testid="attempt-timing">
        sent {clockTime(record.startedAt)} UTC · first token {record.firstTokenMs === undefined ? 'none' : duration(record.firstTokenMs)} · took{' '}
        {duration(record.durationMs)} · model {record.model} ·{' '}
        {record.localInputTokens === undefined ? 'not counted' : `${formatNumber(record.localInputTokens)} prompt tokens counted`}
        {record.inputTokens === undefined
          ? ' · the provider reported no usage'
          : ` · ${formatNumber(record.inputTokens)} reported (${difference ?? '—'})`}
      </p>
      {state.status === 'loading' ? <p className="tl-muted">loading the token counter…</p> : null}
      {state.status === 'unavailable' ? <p className="tl-muted">This attempt was {state.reason}.</p> : null}
      {state.status === 'failed' ? <p className="tl-error">Replay failed: {String(state.error)}</p> : null}
      {replay === undefined ? null : <RowDiff thread={thread} row={row} replay={replay} previous={previous} answered={answered} entryAt={entryAt} />}
      {replay === undefined ? null : <ProjectedMessages result={replay.result} />}
    </section>
  )
}
