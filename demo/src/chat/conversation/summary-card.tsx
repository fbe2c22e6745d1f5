import type { EntryFate } from '@threadlens/core/views'
import { ContextBadge } from './context-badge'

/** A summary checkpoint: it replaces entries fromSeq..toSeq in later projections. */
export function SummaryCard({
  seq,
  fromSeq,
  toSeq,
  content,
  fate,
}: {
  readonly seq: number
  readonly fromSeq: number
  readonly toSeq: number
  readonly content: string
  readonly fate: EntryFate
}) {
  return (
    <details className="chat-summary" data-testid="summary-card" data-seq={seq} data-context={fate.state}>
      <summary className="chat-summary-line">
        <span className="chat-who">Summary</span>
        <span className="chat-seq">#{seq}</span>
        <span>
          replaces entries #{fromSeq}–#{toSeq}
        </span>
        <ContextBadge fate={fate} />
      </summary>
      <p className="chat-message-text">{content}</p>
    </details>
  )
}
