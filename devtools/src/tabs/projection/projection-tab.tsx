import type { ProjectionResult } from '@threadlens/core'
import { lazy, Suspense, useMemo } from 'react'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { usePanelProjection } from '../../panel/panel-projection'
import { useRememberedChoice } from '../../panel/use-remembered-filter'
import { CacheBreakpoints } from '../shared/cache-breakpoints'
import { LeftOutList } from './left-out-list'
import { NextVsLastCall } from './next-vs-last-call'
import { ProjectedMessages } from '../shared/projected-messages'
import { ProjectionStatus } from '../shared/projection-status'
import { RecallNote } from './recall-note'

const ProviderRequest = lazy(() => import('./provider-request'))

type Format = 'neutral' | 'openai' | 'anthropic'
const formatIds: readonly Format[] = ['neutral', 'openai', 'anthropic']
const sources = ['next', 'session'] as const
const formats: readonly { id: Format; label: string }[] = [
  { id: 'neutral', label: 'neutral' },
  { id: 'openai', label: 'OpenAI chat' },
  { id: 'anthropic', label: 'Anthropic messages' },
]

/** Exactly what the next call sends, in neutral form or as a provider request. */
export function ProjectionTab() {
  const panel = usePanel()
  const next = usePanelProjection()
  const [format, setFormat] = useRememberedChoice<Format>('projection-format', formatIds, 'neutral')
  const [source, setSource] = useRememberedChoice<(typeof sources)[number]>('projection-source', sources, 'next')
  const thread = next.thread
  // Bound once per thread version, so the left-out groups are counted once.
  const entryAt = useMemo(() => (thread === undefined ? undefined : (seq: number) => thread.bySeq(seq)), [thread])
  const result = source === 'session' && panel.sessionProjection !== undefined ? panel.sessionProjection : next.result
  return (
    <>
      <div className="tl-row">
        <div className="tl-row" role="radiogroup" aria-label="format">
          {formats.map((item) => (
            <button
              key={item.id}
              type="button"
              className="tl-button"
              role="radio"
              aria-checked={format === item.id}
              data-testid={`format-${item.id}`}
              onClick={() => setFormat(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
        {panel.sessionProjection === undefined ? null : (
          <select
            className="tl-select"
            aria-label="Projection source"
            value={source}
            onChange={(event) => setSource(event.target.value as 'next' | 'session')}
            data-testid="projection-source"
          >
            <option value="next">next call (projected now)</option>
            <option value="session">the session&apos;s call in flight</option>
          </select>
        )}
        {result === undefined ? null : (
          <span className="tl-muted">
            {result.messages.length} messages · {formatNumber(result.meta.tokens.total)} tokens · {result.meta.includedSeqs.length} entries
          </span>
        )}
      </div>
      {result === undefined ? null : (
        <RecallNote meta={result.meta} indexPending={result === next.result && panel.projectOptions.recall === undefined} />
      )}
      {result === undefined ? null : <LeftOutList result={result} entryAt={entryAt} counter={next.counter} />}
      {result === undefined || next.counter === undefined || result !== next.result ? null : <NextVsLastCall next={result} counter={next.counter} />}
      {result === undefined ? null : <CacheBreakpoints result={result} />}
      {result === undefined ? <ProjectionStatus snapshot={next} /> : <FormattedProjection result={result} format={format} />}
    </>
  )
}

function FormattedProjection({ result, format }: { readonly result: ProjectionResult; readonly format: Format }) {
  if (format === 'neutral') return <ProjectedMessages result={result} />
  // The provider formats load when first chosen: the neutral view is the one a first visit shows.
  return (
    <Suspense fallback={<p className="tl-muted">formatting the request…</p>}>
      <ProviderRequest result={result} format={format} />
    </Suspense>
  )
}
