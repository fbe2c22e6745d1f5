import { toAnthropicMessages, toOpenAIChat, type ProjectionResult } from '@threadlens/core'
import { useMemo } from 'react'
import { CollapsibleText } from '../components/collapsible-text'
import { CopyButton } from '../components/copy-button'
import { COLLAPSE_JSON_AFTER_CHARS } from '../constants'
import { formatNumber } from '../model/meter-parts'
import { usePanel } from '../panel/panel-context'
import { usePanelProjection } from '../panel/panel-projection'
import { AttachmentsLeftOut } from '../components/attachments-left-out'
import { readableRequest, storeHeldAttachments, viewFormatOptions } from '../model/request-format'
import { useRememberedChoice } from '../panel/use-remembered-filter'
import { CacheBreakpoints } from './cache-breakpoints'
import { LeftOutList } from './left-out-list'
import { NextVsLastCall } from './next-vs-last-call'
import { ProjectedMessages } from './projected-messages'
import { ProjectionStatus } from './projection-status'
import { RecallNote } from './recall-note'

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
            <button key={item.id} type="button" className="tl-button" role="radio" aria-checked={format === item.id} data-testid={`format-${item.id}`} onClick={() => setFormat(item.id)}>
              {item.label}
            </button>
          ))}
        </div>
        {panel.sessionProjection === undefined ? null : (
          <select className="tl-select" aria-label="Projection source" value={source} onChange={(event) => setSource(event.target.value as 'next' | 'session')} data-testid="projection-source">
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
      {result === undefined ? null : <RecallNote meta={result.meta} indexPending={result === next.result && panel.projectOptions.recall === undefined} />}
      {result === undefined ? null : <LeftOutList result={result} entryAt={entryAt} counter={next.counter} />}
      {result === undefined || next.counter === undefined || result !== next.result ? null : <NextVsLastCall next={result} counter={next.counter} />}
      {result === undefined ? null : <CacheBreakpoints result={result} />}
      {result === undefined ? <ProjectionStatus snapshot={next} /> : <FormattedProjection result={result} format={format} />}
    </>
  )
}

function FormattedProjection({ result, format }: { readonly result: ProjectionResult; readonly format: Format }) {
  // Store-held images and files are shown without their bytes (see request-format).
  const attachments = useMemo(() => storeHeldAttachments(result), [result])
  const openAI = useMemo(() => (format === 'openai' ? toOpenAIChat(result, viewFormatOptions) : undefined), [result, format])
  const json = useMemo(() => {
    if (openAI !== undefined) return readableRequest(JSON.stringify({ messages: openAI }, null, 2), attachments.ids)
    if (format === 'anthropic') return readableRequest(JSON.stringify(toAnthropicMessages(result, viewFormatOptions), null, 2), attachments.ids)
    return ''
  }, [result, format, openAI, attachments])
  if (format === 'neutral') return <ProjectedMessages result={result} />
  if (openAI !== undefined) {
    return (
      <div data-testid="request-json" data-provider="openai">
        <div className="tl-row">
          <CopyButton text={json} label="copy request JSON" />
        </div>
        <AttachmentsLeftOut images={attachments.images} files={attachments.files} />
        {openAI.map((message, position) => (
          <div key={position} className="tl-message" data-testid="provider-message">
            <div className="tl-role">{message.role}</div>
            <CollapsibleText pre text={readableRequest(JSON.stringify(message, null, 2), attachments.ids)} limit={COLLAPSE_JSON_AFTER_CHARS} />
            <div className="tl-tokens">{formatNumber(result.meta.messages[position]?.tokens ?? 0)} tok</div>
          </div>
        ))}
      </div>
    )
  }
  return (
    <div data-testid="request-json" data-provider="anthropic">
      <div className="tl-row">
        <CopyButton text={json} label="copy request JSON" />
        <span className="tl-muted">Anthropic merges consecutive roles and moves system text to `system`; per-message tokens are in the neutral view.</span>
      </div>
      <AttachmentsLeftOut images={attachments.images} files={attachments.files} />
      <CollapsibleText pre text={json} limit={COLLAPSE_JSON_AFTER_CHARS * 4} />
    </div>
  )
}
