import { segments, type MessageInfo, type ProjectedMessage, type ProjectionResult, type Segment } from '@threadlens/core'
import { cacheBreakpoints, type CacheBreakpoint } from '@threadlens/core/caching'
import type { EncodingName } from '@threadlens/core/views'
import { useState } from 'react'
import { CollapsibleText } from '../../components/collapsible-text'
import { MessageAttachments } from '../../components/message-attachments'
import { TokenToggle } from '../../components/token-text'
import { formatNumber } from '../../view-models/meter-parts'

const pageSize = 200

function messageBody(message: ProjectedMessage): string {
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    const calls = message.toolCalls.map((call) => `→ ${call.name} (${call.id}) ${JSON.stringify(call.arguments)}`).join('\n')
    return message.content === '' ? calls : `${message.content}\n${calls}`
  }
  return message.content
}

/** The role, and a tool message's tool; a long tool name may break after `_`, `.`, `-` or `/` (it sits in a narrow column). */
function RoleLabel({ message }: { readonly message: ProjectedMessage }) {
  if (message.role !== 'tool') return <>{message.role}</>
  const parts = message.name.split(/(?<=[_./-])/)
  return (
    <>
      tool ·{' '}
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  )
}

interface Row {
  readonly message: ProjectedMessage
  readonly info: MessageInfo | undefined
  readonly position: number
  readonly breakpoint: CacheBreakpoint | undefined
}

/** The neutral messages, segment by segment, each with its tokens and source seqs. */
export function ProjectedMessages({ result }: { readonly result: ProjectionResult }) {
  const bySegment = new Map<Segment, Row[]>()
  const breakpoints = cacheBreakpoints(result).anthropic
  result.messages.forEach((message, position) => {
    const info = result.meta.messages[position]
    const segment = info?.segment ?? 'history'
    let rows = bySegment.get(segment)
    if (rows === undefined) bySegment.set(segment, (rows = []))
    rows.push({ message, info, position, breakpoint: breakpoints.find((candidate) => candidate.at === position) })
  })
  return (
    <div data-testid="projected-messages" data-count={result.messages.length}>
      {segments.map((segment) => {
        const rows = bySegment.get(segment)
        if (rows === undefined) return null
        const tokens = rows.reduce((total, row) => total + (row.info?.tokens ?? 0), 0)
        // Repeated on purpose: props one a line, like devtools/src/tabs/timeline/timeline-tab.tsx (other components, other props).
        return (
          <SegmentBlock
            key={segment}
            segment={segment}
            rows={rows}
            tokens={tokens}
            encoding={result.meta.counter.id === 'cl100k_base' ? 'cl100k_base' : 'o200k_base'}
          />
        )
      })}
    </div>
  )
}

// Token boundaries come from the projection's encoding; a heuristic count has none, so o200k_base shows them.
function SegmentBlock({
  segment,
  rows,
  tokens,
  encoding,
}: {
  readonly segment: Segment
  readonly rows: readonly Row[]
  readonly tokens: number
  readonly encoding: EncodingName
}) {
  const [shown, setShown] = useState(pageSize)
  return (
    <section className="tl-segment" data-testid={`segment-${segment}`} aria-label={`${segment} segment`}>
      <h3>
        <span className={`tl-swatch tl-part-${segment}`} aria-hidden="true" />
        {segment}
        <span className="tl-muted">
          {rows.length} message{rows.length === 1 ? '' : 's'} · {formatNumber(tokens)} tokens
        </span>
      </h3>
      {rows.slice(Math.max(0, rows.length - shown)).map((row) => (
        <div key={row.position} className="tl-message" data-testid="projected-message" data-role={row.message.role}>
          <div>
            <div className="tl-role">
              <RoleLabel message={row.message} />
            </div>
            <div className="tl-muted tl-mono">{row.info === undefined || row.info.seqs.length === 0 ? '' : `#${row.info.seqs.join(', #')}`}</div>
            {row.info?.reduced === undefined ? null : <span className="tl-badge tl-warn">{row.info.reduced}</span>}
            {row.info?.synthetic === undefined ? null : <span className="tl-badge tl-info">synthetic</span>}
            <MessageAttachments message={row.message} info={row.info} />
            {row.breakpoint === undefined ? null : (
              <span className="tl-badge tl-ok" data-testid="message-breakpoint" title={`prompt-cache breakpoint: ${row.breakpoint.reason}`}>
                cache {row.breakpoint.ttl}
              </span>
            )}
          </div>
          <div>
            <CollapsibleText text={messageBody(row.message)} />
            <TokenToggle text={messageBody(row.message)} encoding={encoding} />
          </div>
          <div className="tl-tokens" title="tokens, overhead included">
            {formatNumber(row.info?.tokens ?? 0)} tok
          </div>
        </div>
      ))}
      {rows.length > shown ? (
        <button type="button" className="tl-more" onClick={() => setShown(shown + pageSize)}>
          show {Math.min(pageSize, rows.length - shown)} older messages ({rows.length - shown} hidden)
        </button>
      ) : null}
    </section>
  )
}
