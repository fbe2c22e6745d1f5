import { project, type ContextPolicy, type ProjectionResult } from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'
import { ThreadlensTokenMeter } from '@threadlens/devtools'
import { useMemo, useState } from 'react'
import { MessageList } from './components/message-list'
import { PolicyControls } from './components/policy-controls'
import { RequestJson } from './components/request-json'
import { ThreadTimeline } from './components/thread-timeline'
import { defaultPolicyId, policyById } from './policies'
import { createSampleThread } from './sample-thread'
import { timelineRows } from './timeline-state'
import { useTokenCounter, type CounterChoice } from './use-token-counter'

// The thread never changes on this page, so it is built once, and so is its recall index (for policies with recall).
const sampleThread = createSampleThread()
const sampleRecall = createRecallIndex()

function policyLine(policy: ContextPolicy): string {
  const parts = [`window ${policy.maxInputTokens}`, `reserve ${policy.reserveOutputTokens}`, `keep last ${policy.keepLastTurns} turns`]
  if (policy.maxTurns !== undefined) parts.push(`max ${policy.maxTurns} turns`)
  if (policy.maxMessages !== undefined) parts.push(`max ${policy.maxMessages} messages`)
  if (policy.recall !== undefined) parts.push(`recall ${Math.round(policy.recall.share * 100)}% of history`)
  return parts.join(' · ')
}

type Projection = { readonly ok: true; readonly result: ProjectionResult } | { readonly ok: false; readonly message: string }

/** The projection lab: the sample thread under switchable policies and counters, projected in the page. */
export function LabApp() {
  const [policyId, setPolicyId] = useState(defaultPolicyId)
  const [counterId, setCounterId] = useState<CounterChoice>('o200k_base')
  const counterState = useTokenCounter(counterId)
  const { policy } = policyById(policyId)
  const counter = counterState.status === 'ready' ? counterState.counter : undefined

  const projection = useMemo((): Projection | undefined => {
    if (counter === undefined) return undefined
    try {
      return { ok: true, result: project({ thread: sampleThread, policy, counter, recall: sampleRecall }) }
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
  }, [policy, counter])
  const rows = useMemo(() => (projection?.ok === true ? timelineRows(sampleThread.entries, projection.result.meta) : []), [projection])

  return (
    <div className="app">
      <header className="app-header">
        <div className="title">
          <h1>threadlens</h1>
          <p className="muted">
            {sampleThread.entries.length}-entry sample thread · {policyLine(policy)}
          </p>
        </div>
        {/* Repeated on purpose: props one a line, the shape of the chat's in demo/src/chat/chat-shell.tsx, demo/src/chat/chat-sidebar.tsx and
            demo/src/chat/settings/settings-panel.tsx (other components; the chat and the lab share no code). */}
        <PolicyControls
          policyId={policyId}
          onPolicyChange={setPolicyId}
          counterId={counterId}
          onCounterChange={setCounterId}
          counterState={counterState}
        />
      </header>
      {projection === undefined ? (
        <p className="placeholder" data-testid="projection-loading">
          counting…
        </p>
      ) : projection.ok ? (
        <>
          <ThreadlensTokenMeter
            meta={projection.result.meta}
            variant="full"
            label="Tokens of the projection"
            className="meter"
            data-testid="token-meter"
          />
          <main className="columns">
            <MessageList result={projection.result} />
            <ThreadTimeline rows={rows} />
            <RequestJson result={projection.result} />
          </main>
        </>
      ) : (
        <p className="placeholder error" role="alert">
          Projection failed: {projection.message}
        </p>
      )}
    </div>
  )
}
