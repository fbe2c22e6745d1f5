import { toOpenAIChat, type Thread } from '@threadlens/core'
import { compareProjections, replayThreadCall, threadCalls, useSession, useThread, useTokenCounter, createSessionSource, type ThreadCall } from '@threadlens/react'
import { useMemo, useState } from 'react'
import { CopyButton } from '../components/copy-button'
import { VirtualList } from '../components/virtual-list'
import { formatNumber } from '../model/meter-parts'
import { usePanel } from '../panel/panel-context'
import { CachePredictions } from './cache-predictions'
import { SeqList } from './policy-lab-tab'
import { ProjectedMessages } from './projected-messages'

const noSession = createSessionSource({ status: 'idle', threadId: '' })

/** Every past model call of the thread, replayed, with the diff from the call before. */
export function CallsTab() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const calls = useMemo(() => (thread === undefined ? [] : threadCalls(thread, records)), [thread, records])
  const [selected, setSelected] = useState<string | undefined>(undefined)
  if (thread === undefined) return <p className="tl-muted">loading the thread…</p>
  if (calls.length === 0) {
    return (
      <p className="tl-muted" data-testid="calls-empty">
        No model calls recorded: calls are entries that share refs.callId (the agent writes them).
      </p>
    )
  }
  const call = calls.find((item) => item.callId === selected) ?? (calls[calls.length - 1] as ThreadCall)
  return (
    <div className="tl-split">
      <div style={{ maxWidth: 420 }}>
        <p className="tl-muted" data-testid="calls-count">
          {calls.length} calls
        </p>
        <VirtualList
          count={calls.length}
          rowHeight={26}
          label="model calls"
          testId="calls-list"
          followEnd
          rowKey={(index) => calls[index]?.callId ?? index}
          renderRow={(index) => {
            const item = calls[index] as ThreadCall
            return (
              <div className="tl-call-row" data-testid="call-row" data-call-id={item.callId} aria-selected={item === call} onClick={() => setSelected(item.callId)}>
                <span className="tl-mono">{item.ordinal + 1}</span>
                <span className="tl-mono">{item.callId}</span>
                <span className="tl-muted">
                  #{item.firstSeq}
                  {item.lastSeq === item.firstSeq ? '' : `–#${item.lastSeq}`}
                </span>
                <span className="tl-muted">{item.toolCallCount > 0 ? `${item.toolCallCount} tool calls` : (item.record?.stopReason ?? '')}</span>
              </div>
            )
          }}
        />
        <CachePredictions thread={thread} calls={calls} />
      </div>
      <CallDetail thread={thread} call={call} previous={calls[call.ordinal - 1]} />
    </div>
  )
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
      return { current, before, diff: before === undefined ? undefined : compareProjections(before.result, current.result), error: undefined }
    } catch (error) {
      return { current: undefined, before: undefined, diff: undefined, error }
    }
  }, [thread, call, previous, counter, panel.policy])
  if (replays === undefined) return <p className="tl-muted">loading the token counter…</p>
  if (replays.current === undefined) return <p className="tl-error">Replay failed: {String(replays.error)}</p>
  const { current, diff } = replays
  const usage = call.record?.usage
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
      {diff === undefined ? (
        <p className="tl-muted">The thread&apos;s first call: nothing to compare with.</p>
      ) : (
        <div className="tl-card" data-testid="call-diff">
          <p>
            vs the call before: tokens {diff.tokenDelta > 0 ? '+' : ''}
            {formatNumber(diff.tokenDelta)} ·{' '}
            <span className={`tl-badge ${diff.prefixStable ? 'tl-ok' : 'tl-warn'}`} data-testid="prefix-stable" data-stable={diff.prefixStable}>
              {diff.prefixStable ? 'prefix cache-stable' : 'prefix changed'}
            </span>{' '}
            <span className="tl-muted">
              shared leading messages {diff.sharedPrefixMessages} ({formatNumber(diff.sharedPrefixTokens)} tokens) · prefixKey {diff.samePrefixKey ? 'same' : 'changed'}
            </span>
          </p>
          <SeqList label="entered" testId="call-entered" seqs={diff.entered} />
          <SeqList label="left" testId="call-left" seqs={diff.left} />
        </div>
      )}
      <ProjectedMessages result={current.result} />
    </section>
  )
}
