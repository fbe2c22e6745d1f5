import { ContextBadge, isOutOfContext } from './context-badge'
import type { EntryFate } from '@threadlens/core/views'
import type { ContentPart } from '@threadlens/core/parts'
import { MessageAttachments } from './message-attachments'

export interface MessageBubbleProps {
  readonly seq: number
  readonly role: 'user' | 'assistant'
  readonly content: string
  readonly interrupted: boolean
  readonly fate: EntryFate
  onFork(seq: number): void
  readonly refusal?: string
  readonly parts?: readonly ContentPart[]
  loadAttachment(id: string): Promise<Blob | undefined>
}

/** One message. Its text is a text node: markup in it stays text. */
export function MessageBubble({ seq, role, content, interrupted, fate, onFork, refusal, parts, loadAttachment }: MessageBubbleProps) {
  const who = role === 'user' ? 'You' : 'Assistant'
  return (
    <article
      className={`chat-message chat-message--${role}${isOutOfContext(fate) ? ' chat-out' : ''}`}
      data-testid="chat-message"
      data-role={role}
      data-seq={seq}
      data-context={fate.state}
      aria-label={`${who}, entry ${seq}`}
    >
      <header className="chat-item-meta">
        <span className="chat-who">{who}</span>
        <span className="chat-seq">#{seq}</span>
        {interrupted ? <span className="chat-badge chat-badge--dropped">interrupted</span> : null}
        <ContextBadge fate={fate} />
        <button type="button" className="chat-link-button" onClick={() => onFork(seq)} aria-label={`Fork the chat from entry ${seq}`}>
          Fork
        </button>
      </header>
      <MessageAttachments parts={parts} loadAttachment={loadAttachment} />
      {content === '' ? null : <p className="chat-message-text">{content}</p>}
      {refusal === undefined ? null : <p className="chat-message-text chat-refusal">Refused: {refusal}</p>}
    </article>
  )
}
