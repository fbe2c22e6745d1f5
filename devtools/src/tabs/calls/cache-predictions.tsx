import type { Thread } from '@threadlens/core'
import { replayThreadCall, type ThreadCall } from '@threadlens/core/calls'
import { useTokenCounter } from '@threadlens/react'
import { useMemo } from 'react'
import { CACHE_PREDICTION_CALLS } from '../../constants'
import { predictCalls, type CachePrediction } from '../../view-models/cache-predictions'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'

const verdictText: Readonly<Record<CachePrediction['comparison']['verdict'], string>> = {
  'as-predicted': 'as predicted',
  'unpredicted-miss': 'miss not predicted: expired, evicted or routed elsewhere?',
  'unpredicted-hit': 'more cached than predicted',
  'not-reported': 'no cache figures reported',
}

/** Predicted vs provider-reported prompt-cache reads, per call (the newest `CACHE_PREDICTION_CALLS`). */
export function CachePredictions({ thread, calls }: { readonly thread: Thread; readonly calls: readonly ThreadCall[] }) {
  const panel = usePanel()
  const counter = useTokenCounter(panel.policy.tokenizer).counter
  const predictions = useMemo(() => {
    if (counter === undefined) return undefined
    const recent = calls.slice(-CACHE_PREDICTION_CALLS)
    try {
      return predictCalls(
        recent.map((call) => {
          const replay = replayThreadCall(thread, call, { fallbackPolicy: panel.policy, counter })
          const first = thread.bySeq(call.firstSeq)
          return {
            callId: call.callId,
            result: replay.projection,
            tools: call.record?.tools ?? [],
            at: call.record?.startedAt ?? first?.createdAt ?? 0,
            model: call.record?.model,
            reported: call.record?.usage,
          }
        }),
        (text) => counter.countCached(text),
      )
    } catch {
      return undefined
    }
  }, [thread, calls, counter, panel.policy])
  if (predictions === undefined || predictions.length === 0) return null
  const misses = predictions.filter((prediction) => prediction.comparison.verdict === 'unpredicted-miss').length
  return (
    <details className="tl-card" data-testid="cache-predictions" data-misses={misses}>
      <summary>
        prompt cache: predicted vs reported · {misses === 0 ? 'no unpredicted misses' : `${misses} unpredicted miss${misses === 1 ? '' : 'es'}`}
      </summary>
      <table className="tl-table">
        <thead>
          <tr>
            <th>call</th>
            <th>rules</th>
            <th>predicted read / write</th>
            <th>reported read</th>
            <th>verdict</th>
          </tr>
        </thead>
        <tbody>
          {predictions.map((prediction) => (
            <tr key={prediction.callId} data-testid="cache-prediction" data-verdict={prediction.comparison.verdict}>
              <td className="tl-mono">{prediction.callId}</td>
              <td>{prediction.provider}</td>
              <td>
                {formatNumber(prediction.predicted.readTokens)} / {formatNumber(prediction.predicted.writeTokens)}
              </td>
              <td>{prediction.comparison.reportedReadTokens === undefined ? '–' : formatNumber(prediction.comparison.reportedReadTokens)}</td>
              <td className={prediction.comparison.verdict === 'unpredicted-miss' ? 'tl-error' : 'tl-muted'}>
                {verdictText[prediction.comparison.verdict]}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}
