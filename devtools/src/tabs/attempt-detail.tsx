import { replayCall, toOpenAIChat, type Thread } from '@threadlens/core'
import { type CallAttempt } from '@threadlens/core/calls'
import { useTokenCounter } from '@threadlens/react'
import { useMemo } from 'react'
import { CopyButton } from '../components/copy-button'
import { clockTime, countDifference, duration } from '../model/call-trace-rows'
import { formatNumber } from '../model/meter-parts'
import { ProjectedMessages } from './projected-messages'

/** An attempt that did not answer: its error, and the exact messages it sent, rebuilt from the thread and its record. */
export function AttemptDetail({ thread, attempt }: { readonly thread: Thread; readonly attempt: CallAttempt }) {
  const record = attempt.record
  const id = record.counter
  const counter = useTokenCounter(id === 'o200k_base' || id === 'cl100k_base' || id === 'heuristic' ? id : undefined)?.counter
  const replay = useMemo(() => {
    if (counter === undefined) return undefined
    try {
      return { result: replayCall(thread.entries, record, { counter }), error: undefined }
    } catch (error) {
      return { result: undefined, error }
    }
  }, [thread, record, counter])
  const difference = countDifference(record)
  return (
    <section style={{ overflow: 'auto' }} data-testid="attempt-detail" data-attempt-id={attempt.id} aria-label={`attempt ${attempt.id}`}>
      <div className="tl-row">
        <strong>
          call {attempt.callId} · attempt {attempt.attempt}
        </strong>
        <span className={`tl-badge ${attempt.status === 'failed' ? 'tl-danger' : 'tl-warn'}`}>{attempt.status}</span>
        {replay?.result === undefined ? null : (
          <span className={`tl-badge ${replay.result.verified === true ? 'tl-ok' : 'tl-danger'}`} data-testid="replay-verified" data-verified={replay.result.verified}>
            {replay.result.verified === true ? 'matches the recorded messages hash' : 'differs from what was recorded'}
          </span>
        )}
        {replay?.result === undefined ? null : <CopyButton text={JSON.stringify({ messages: toOpenAIChat(replay.result.projection) }, null, 2)} label="copy as OpenAI JSON" />}
      </div>
      {attempt.error === undefined ? null : (
        <p className="tl-error" data-testid="attempt-error">
          {attempt.error.name}
          {attempt.error.status === undefined ? '' : ` (HTTP ${attempt.error.status})`}: {attempt.error.message}
        </p>
      )}
      <p className="tl-muted">
        sent {clockTime(record.startedAt)} UTC · first token {duration(record.firstTokenMs)} · took {duration(record.durationMs)} · model {record.model} ·{' '}
        {record.localInputTokens === undefined ? '' : `${formatNumber(record.localInputTokens)} tokens counted`}
        {record.inputTokens === undefined ? ' · no usage reported' : ` · ${formatNumber(record.inputTokens)} reported (${difference ?? '—'})`}
      </p>
      {replay === undefined ? <p className="tl-muted">{counter === undefined && id !== 'o200k_base' && id !== 'cl100k_base' && id !== 'heuristic' ? `counted with "${id}": replay it with that counter (core's replayCall)` : 'loading the token counter…'}</p> : null}
      {replay?.error === undefined ? null : <p className="tl-error">Replay failed: {String(replay.error)}</p>}
      {replay?.result === undefined ? null : <ProjectedMessages result={replay.result.projection} />}
    </section>
  )
}
