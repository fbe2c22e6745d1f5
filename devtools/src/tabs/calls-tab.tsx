import { toOpenAIChat, type ProjectionResult, type Thread, type TokenCounter } from '@threadlens/core'
import { replayThreadCall, threadCalls, createSessionSource, type ThreadCall } from '@threadlens/client'
import { useCallAttempts, useSession, useThread, useTokenCounter } from '@threadlens/react'
import { useMemo, useState } from 'react'
import { CopyButton } from '../components/copy-button'
import { traceRows, clockTime, countDifference, duration, type TraceRow } from '../model/call-trace-rows'
import { AttemptDetail } from './attempt-detail'
import { CalibrationList, TraceList } from './calls-trace'
import { formatNumber } from '../model/meter-parts'
import { usePanel } from '../panel/panel-context'
import { CachePredictions } from './cache-predictions'
import { TurnDiffView } from './turn-diff-view'
import { predictCalls } from '../model/cache-predictions'
import { ProjectedMessages } from './projected-messages'

const noSession = createSessionSource({ status: 'idle', threadId: '' })

/**
 * Every attempt of every model call of the thread, answered or not (the thread's records and the
 * call log's failed, retried and aborted attempts), each replayed; answered calls diffed with the
 * call before; per model, the token calibration in use.
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
  const row = rows.find((item) => item.key === selected) ?? (rows[rows.length - 1] as TraceRow)
  const failures = rows.filter((item) => item.status !== 'ok').length
  return (
    <div className="tl-split tl-calls">
      <div className="tl-calls-list">
        <p className="tl-muted" data-testid="calls-count">
          {calls.length} calls{attempts.length === 0 ? '' : ` · ${rows.length} attempts, ${failures} not answered`}
        </p>
        <TraceList rows={rows} selected={row} onSelect={setSelected} entryAt={entryAt} />
        <CalibrationList />
        <CachePredictions thread={thread} calls={calls} />
      </div>
      {row.kind === 'call' ? <CallDetail thread={thread} call={row.call} previous={calls[row.call.ordinal - 1]} /> : <AttemptDetail thread={thread} attempt={row.attempt} />}
    </div>
  )
}

/** What the prompt-cache simulator predicts this call reads after the call before (provider rules by model). */
function predictedRead(thread: Thread, previous: ThreadCall, before: ProjectionResult, call: ThreadCall, after: ProjectionResult, counter: TokenCounter): number | undefined {
  const at = (item: ThreadCall) => item.record?.startedAt ?? thread.bySeq(item.firstSeq)?.createdAt ?? 0
  const input = (item: ThreadCall, result: ProjectionResult) => ({ callId: item.callId, result, tools: item.record?.tools ?? [], at: at(item), model: item.record?.model, reported: item.record?.usage })
  return predictCalls([input(previous, before), input(call, after)], (text) => counter.countCached(text))[1]?.predicted.readTokens
}

function CallDetail({ thread, call, previous }: { readonly thread: Thread; readonly call: ThreadCall; readonly previous: ThreadCall | undefined }) {
  const panel = usePanel()
  // The counter the call recorded, when it is a built-in one; else the recorded policy's, else the panel's.
  const recordedCounter = call.record?.counter
  const builtIn = recordedCounter === 'o200k_base' || recordedCounter === 'cl100k_base' || recordedCounter === 'heuristic' ? recordedCounter : undefined
  const tokenizer = builtIn ?? call.record?.policy?.tokenizer ?? panel.policy.tokenizer
  const counter = useTokenCounter(tokenizer).counter
  const replays = useMemo(() => {
    if (counter === undefined) return undefined
    const options = { fallbackPolicy: panel.policy, counter }
    try {
      const current = replayThreadCall(thread, call, options)
      const before = previous === undefined ? undefined : replayThreadCall(thread, previous, options)
      return { current, before, predictedReadTokens: before === undefined || previous === undefined ? undefined : predictedRead(thread, previous, before.result, call, current.result, counter), error: undefined }
    } catch (error) {
      return { current: undefined, before: undefined, predictedReadTokens: undefined, error }
    }
  }, [thread, call, previous, counter, panel.policy])
  const entryAt = useMemo(() => (seq: number) => thread.bySeq(seq), [thread])
  if (replays === undefined) return <p className="tl-muted">loading the token counter…</p>
  if (replays.current === undefined) return <p className="tl-error">Replay failed: {String(replays.error)}</p>
  const { current, before } = replays
  const usage = call.record?.usage
  const stored = call.record?.stored
  const reportedCached = usage?.cachedInputTokens ?? stored?.cachedInputTokens
  return (
    <section style={{ overflow: 'auto' }} data-testid="call-detail" data-call-id={call.callId} aria-label={`call ${call.callId}`}>
      <div className="tl-row">
        <strong>call {call.callId}</strong>
        {call.requestId === undefined ? null : <span className="tl-muted">request {call.requestId}</span>}
        <span className={`tl-badge ${current.policySource === 'recorded' ? 'tl-ok' : 'tl-warn'}`} title={current.policySource === 'recorded' ? 'replayed with the policy the call recorded: exact' : 'no policy recorded: replayed with the panel policy'}>
          {current.policySource === 'recorded' ? 'exact replay (recorded policy)' : `replayed with ${current.policy.name ?? 'the panel policy'}`}
        </span>
        {current.verified === undefined ? null : (
          <span className={`tl-badge ${current.verified ? 'tl-ok' : 'tl-danger'}`} data-testid="replay-verified" data-verified={current.verified}>
            {current.verified ? 'matches the recorded messages hash' : 'differs from what was recorded'}
          </span>
        )}
        <CopyButton text={JSON.stringify({ messages: toOpenAIChat(current.result) }, null, 2)} label="copy as OpenAI JSON" />
      </div>
      <p className="tl-muted">
        sent {current.result.messages.length} messages · {formatNumber(current.result.meta.tokens.total)} tokens (counted)
        {usage === undefined ? ' · usage not recorded' : ` · usage: ${formatNumber(usage.inputTokens)} in, ${formatNumber(usage.outputTokens)} out${usage.cachedInputTokens === undefined ? '' : `, ${formatNumber(usage.cachedInputTokens)} cached`}`}
        {call.record?.stopReason === undefined ? '' : ` · stop: ${call.record.stopReason}`}
        {call.record?.model === undefined ? '' : ` · model ${call.record.model}`}
      </p>
      {stored === undefined ? null : (
        <p className="tl-muted" data-testid="call-timing">
          sent {clockTime(stored.startedAt)} UTC · first token {duration(stored.firstTokenMs)} · took {duration(stored.durationMs)} · {stored.attempts ?? 1} attempt
          {(stored.attempts ?? 1) === 1 ? '' : 's'}
          {stored.localInputTokens === undefined ? '' : ` · local ${formatNumber(stored.localInputTokens)} vs reported ${stored.inputTokens === undefined ? '—' : formatNumber(stored.inputTokens)}`}
          {countDifference(stored) === undefined ? '' : ` (${countDifference(stored)})`}
          {stored.cacheWriteInputTokens === undefined ? '' : ` · ${formatNumber(stored.cacheWriteInputTokens)} written to cache`}
        </p>
      )}
      {before === undefined ? (
        <p className="tl-muted">The thread&apos;s first call: nothing to compare with.</p>
      ) : (
        <TurnDiffView
          before={before.result}
          after={current.result}
          entryAt={entryAt}
          beforeLabel="the call before"
          testId="call-diff"
          cache={{
            ...(replays.predictedReadTokens === undefined ? {} : { predictedReadTokens: replays.predictedReadTokens }),
            ...(reportedCached === undefined ? {} : { reportedReadTokens: reportedCached }),
          }}
        />
      )}
      <ProjectedMessages result={current.result} />
    </section>
  )
}
