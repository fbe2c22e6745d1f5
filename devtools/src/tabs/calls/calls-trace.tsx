import type { Entry } from '@threadlens/core'
import { calibrationDefaults, calibrationVerdict, type TokenCalibration } from '@threadlens/core/calls'
import { modelInfo } from '@threadlens/core/models'
import { useCalibrations } from '@threadlens/react'
import { useMemo } from 'react'
import { VirtualList } from '../../components/virtual-list'
import { useModelPrices } from '../../view-models/model-prices'
import {
  cacheFigures,
  callCost,
  clockTime,
  countDifference,
  duration,
  formatCost,
  rowFigures,
  traceLabel,
  type TraceRow,
} from '../../view-models/call-trace-rows'
import { formatNumber } from '../../view-models/meter-parts'
import { calibrationWords } from '../../view-models/plain-words'

const statusClass: Readonly<Record<TraceRow['status'], string>> = { ok: 'tl-ok', retried: 'tl-warn', failed: 'tl-danger', aborted: 'tl-warn' }

/**
 * Every attempt, answered or not, newest first: time, status, what it answered, latency, local vs
 * reported prompt tokens, cache read / written, cost. `rows` are in the order sent. Narrow, each row
 * stacks: what it answered on one line, the figures (each labelled) under it.
 */
export function TraceList({
  rows,
  selected,
  onSelect,
  entryAt,
}: {
  readonly rows: readonly TraceRow[]
  readonly selected: TraceRow
  readonly onSelect: (key: string) => void
  /** The thread's entries, for each row's words. */
  readonly entryAt: (seq: number) => Entry | undefined
}) {
  const newestFirst = useMemo(() => [...rows].reverse(), [rows])
  // Costs need the model prices: the Calls tab asks for them as it opens.
  useModelPrices(true)
  return (
    <>
      {/* What each column holds (the same grid as the rows; narrow, each figure carries its own label). */}
      <div className="tl-trace-head" data-testid="calls-head">
        <span>sent (UTC)</span>
        <span>status</span>
        <span>what it answered, or why it failed</span>
        <span>first token / total</span>
        <span>prompt tokens: counted → reported</span>
        <span>cache read / written</span>
        <span>cost</span>
      </div>
      <VirtualList
        count={newestFirst.length}
        rowHeight={26}
        measure
        label="model call attempts, newest first"
        testId="calls-list"
        className="tl-trace-list"
        rowKey={(index) => newestFirst[index]?.key ?? index}
        renderRow={(index) => <TraceRowView row={newestFirst[index] as TraceRow} selected={selected} onSelect={onSelect} entryAt={entryAt} />}
      />
    </>
  )
}

function TraceRowView({
  row,
  selected,
  onSelect,
  entryAt,
}: {
  readonly row: TraceRow
  readonly selected: TraceRow
  readonly onSelect: (key: string) => void
  readonly entryAt: (seq: number) => Entry | undefined
}) {
  const record = rowFigures(row)
  const name = row.kind === 'call' ? row.call.callId : row.attempt.callId
  const attempt = row.kind === 'attempt' ? row.attempt.attempt : (record?.attempts ?? 1)
  const difference = countDifference(record)
  return (
    <div
      className="tl-call-row tl-trace-row"
      data-testid={row.kind === 'call' ? 'call-row' : 'attempt-row'}
      data-call-id={name}
      data-status={row.status}
      data-attempt={attempt}
      role="button"
      tabIndex={0}
      aria-current={row === selected ? 'true' : undefined}
      onClick={() => onSelect(row.key)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault()
          onSelect(row.key)
        }
      }}
      title={`call ${name}${row.kind === 'attempt' && row.attempt.error !== undefined ? `\n${row.attempt.error.name}: ${row.attempt.error.message}` : ''}`}
    >
      <span className="tl-mono tl-muted">{clockTime(record?.startedAt)}</span>
      <span className={`tl-badge ${statusClass[row.status]}`}>{row.status}</span>
      <span className="tl-ellipsis" data-testid="trace-label">
        {attempt > 1 || row.kind === 'attempt' ? <span className="tl-muted">try {attempt} · </span> : null}
        {traceLabel(row, entryAt)}
      </span>
      <span className="tl-trace-figures">
        <span className="tl-mono tl-muted" title="first token / total" data-label="time" data-testid="trace-latency">
          {duration(record?.firstTokenMs)} / {duration(record?.durationMs)}
        </span>
        <span className="tl-mono" title="prompt tokens: local count → provider-reported (difference)" data-label="tokens" data-testid="trace-tokens">
          {record?.localInputTokens === undefined ? '—' : formatNumber(record.localInputTokens)} →{' '}
          {record?.inputTokens === undefined ? '—' : formatNumber(record.inputTokens)}
          {difference === undefined ? '' : <span className="tl-trace-difference"> {difference}</span>}
        </span>
        <span
          className="tl-mono tl-muted"
          title="prompt tokens read from the provider's cache / written to it"
          data-label="cache"
          data-testid="trace-cache"
        >
          {cacheFigures(record)}
        </span>
        <span
          className="tl-mono tl-muted"
          title="at the model's list prices (cache reads and writes at theirs)"
          data-label="cost"
          data-testid="trace-cost"
        >
          {formatCost(callCost(record))}
        </span>
      </span>
    </div>
  )
}

function exactnessOf(calibration: TokenCalibration): { exact: boolean; defaultMargin: number } {
  try {
    const info = modelInfo(calibration.model)
    return { exact: info.exactTokenizer && info.tokenizer === calibration.counter, defaultMargin: info.safetyMargin }
  } catch {
    return { exact: calibration.counter !== 'heuristic', defaultMargin: calibration.counter === 'heuristic' ? 0.15 : 0 }
  }
}

/** Per model: how the provider counts against the local counter, and what `policyForModel` plans with. */
export function CalibrationList() {
  const calibrations = useCalibrations()
  if (!calibrations.available) {
    return (
      <p className="tl-muted" data-testid="calibrations-unavailable">
        Calibration: give the client a call log (createThreadlensClient(&#123; threads, calls &#125;)) to see it.
      </p>
    )
  }
  if (calibrations.value.length === 0)
    return (
      <p className="tl-muted" data-testid="calibrations-empty">
        Calibration: no call has reported usage yet.
      </p>
    )
  return (
    <div className="tl-card" data-testid="calibrations">
      <p className="tl-h">How each model counts tokens, against the local counter (recent calls)</p>
      {calibrations.value.map((calibration) => {
        const verdict = calibrationVerdict(calibration, exactnessOf(calibration))
        return (
          <p
            key={`${calibration.model}/${calibration.counter}`}
            data-testid="calibration"
            data-model={calibration.model}
            data-source={verdict.source}
            title={`provider ÷ local: ×${calibration.ratio.toFixed(3)} ± ${calibration.spread.toFixed(3)} over ${calibration.samples.length} calls · plans at ×${verdict.upperRatio.toFixed(3)}${verdict.source === 'calibrated' ? '' : ' (default margin)'}`}
          >
            <span className="tl-mono">{calibration.model}</span> <span className="tl-muted">({calibration.counter})</span>{' '}
            {calibrationWords({
              ratio: calibration.ratio,
              calls: calibration.samples.length,
              upperRatio: verdict.upperRatio,
              calibrated: verdict.source === 'calibrated',
              minimumSamples: calibrationDefaults.minimumSamples,
            })}
            {verdict.mismatch === undefined ? null : (
              <span className="tl-badge tl-danger" data-testid="count-mismatch">
                {' '}
                counts off by {verdict.mismatch.tokensPerMessage.toFixed(1)} tokens/message: not this model&apos;s tokenizer?
              </span>
            )}
          </p>
        )
      })}
    </div>
  )
}
