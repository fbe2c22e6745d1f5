import type { ReasoningItem } from '@threadlens/core/views'
import { ContextBadge, isOutOfContext } from './context-badge'
import type { EntryFate } from '@threadlens/core/views'

type ToolItem = Extract<ReasoningItem, { kind: 'tool' }>

function argumentsPreview(args: ToolItem['arguments']): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ')
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

const statusText = { ok: 'done', error: 'failed', pending: 'running…' } as const

/** A tool call and its result: one line, expandable to the full arguments and output (as text). */
export function ToolCard({ item, fate, onFork }: { readonly item: ToolItem; readonly fate: EntryFate; onFork(seq: number): void }) {
  const forkAt = item.resultSeq ?? item.seq
  const preview = argumentsPreview(item.arguments)
  return (
    <details
      className={`chat-tool chat-tool--${item.status}${isOutOfContext(fate) ? ' chat-out' : ''}`}
      data-testid="tool-card"
      data-tool={item.name}
      data-status={item.status}
      data-seq={item.seq}
      data-context={fate.state}
    >
      <summary className="chat-tool-summary">
        <span className="chat-tool-name">{item.name}</span>
        <span className="chat-tool-args" title={preview}>
          {preview}
        </span>
        <span className={`chat-badge chat-badge--${item.status}`} data-testid="tool-status">
          {statusText[item.status]}
        </span>
        {item.truncated === undefined ? null : (
          <span className="chat-badge chat-badge--reduced" title="cut before it entered the thread">
            cut from {item.truncated.totalLines.toLocaleString('en-US')} lines
          </span>
        )}
        <ContextBadge fate={fate} />
      </summary>
      <div className="chat-tool-body">
        <h3 className="chat-tool-heading">
          Arguments <span className="chat-seq">#{item.seq}</span>
        </h3>
        <pre className="chat-pre">{JSON.stringify(item.arguments, null, 2)}</pre>
        <h3 className="chat-tool-heading">
          {item.status === 'error' ? 'Error' : 'Result'} {item.resultSeq === undefined ? null : <span className="chat-seq">#{item.resultSeq}</span>}
        </h3>
        <pre className="chat-pre" data-testid="tool-output">
          {item.output ?? 'waiting for the result…'}
        </pre>
        <button type="button" className="chat-link-button" onClick={() => onFork(forkAt)} aria-label={`Fork the chat from entry ${forkAt}`}>
          Fork from here
        </button>
      </div>
    </details>
  )
}
