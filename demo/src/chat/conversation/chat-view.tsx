import type { ProjectionMeta, Thread } from '@threadlens/core'
import { useMemo, useState } from 'react'
import { CHAT_PAGE_SIZE } from '../chat-config'
import { CONVERSATION_ID } from '../skip-links'
import { chatItems, type ChatItem } from './chat-items'
import { entryFates, type EntryFate } from '@threadlens/core/views'
import { MessageBubble } from './message-bubble'
import { SummaryCard } from './summary-card'
import { ToolCard } from './tool-card'
import { useConversationScroll } from './use-conversation-scroll'

export interface ChatViewProps {
  readonly thread: Thread
  /** The next call's projection: which entries it sends (the rest are greyed). */
  readonly meta: ProjectionMeta | undefined
  /** The user's message on its way into the thread. */
  readonly pending: { readonly text: string; readonly requestId: string | undefined } | undefined
  readonly waitingForTab: boolean
  /** The reply streaming now. */
  readonly streamingText: string
  readonly busy: boolean
  onFork(seq: number): void
  onSuggest(text: string): void
  /** Reads a stored image's bytes for its thumbnail (the store's `attachments.get`). */
  loadAttachment(id: string): Promise<Blob | undefined>
}

const included: EntryFate = { state: 'included', reduced: undefined }
const suggestions = [
  'Hello! What can you do?',
  'What is 17% of 2,340?',
  'Convert 5 km to miles',
  'Remember that my flight leaves at 9:40',
  'Read the quarterly report',
]

function ItemView({
  item,
  fate,
  onFork,
  loadAttachment,
}: {
  readonly item: ChatItem
  readonly fate: EntryFate
  onFork(seq: number): void
  loadAttachment(id: string): Promise<Blob | undefined>
}) {
  if (item.kind === 'message') {
    return (
      <MessageBubble
        seq={item.seq}
        role={item.role}
        content={item.content}
        interrupted={item.interrupted}
        fate={fate}
        onFork={onFork}
        {...(item.refusal === undefined ? {} : { refusal: item.refusal })}
        {...(item.parts === undefined ? {} : { parts: item.parts })}
        loadAttachment={loadAttachment}
      />
    )
  }
  if (item.kind === 'tool') return <ToolCard item={item} fate={fate} onFork={onFork} />
  if (item.kind === 'summary') return <SummaryCard seq={item.seq} fromSeq={item.fromSeq} toSeq={item.toSeq} content={item.content} fate={fate} />
  return (
    <p className="chat-operation" data-testid="chat-operation" data-seq={item.seq}>
      {item.text}
    </p>
  )
}

/** The conversation: messages, tool cards and summaries, the message being sent and the reply streaming in. */
export function ChatView({ thread, meta, pending, waitingForTab, streamingText, busy, onFork, onSuggest, loadAttachment }: ChatViewProps) {
  const items = useMemo(() => chatItems(thread), [thread])
  const fates = meta === undefined ? undefined : entryFates(meta)
  const [shown, setShown] = useState(CHAT_PAGE_SIZE)
  const visible = items.length > shown ? items.slice(items.length - shown) : items
  const hidden = items.length - visible.length
  // The pending bubble stays until the thread holds the user's message (its requestId), so it never flickers out.
  const pendingShown =
    pending !== undefined &&
    (pending.requestId === undefined ||
      !thread.byRef('requestId', pending.requestId).some((entry) => entry.kind === 'message' && entry.payload.role === 'user'))
  const { scroller, onScroll, keepPlace } = useConversationScroll([items, streamingText, pendingShown, shown])

  return (
    <div
      className="chat-scroll"
      ref={scroller}
      onScroll={onScroll}
      data-testid="chat-view"
      id={CONVERSATION_ID}
      // Focusable, so the keyboard can scroll it and the skip link can land on it.
      tabIndex={0}
      data-entry-count={thread.entries.length}
      aria-label="Conversation"
      role="log"
      aria-busy={busy}
    >
      {items.length === 0 && !pendingShown ? <EmptyConversation onSuggest={onSuggest} /> : null}
      {hidden > 0 ? (
        <button
          type="button"
          className="chat-button chat-earlier"
          onClick={() => {
            keepPlace()
            setShown((count) => count + CHAT_PAGE_SIZE)
          }}
        >
          Show {Math.min(hidden, CHAT_PAGE_SIZE)} earlier ({hidden} hidden)
        </button>
      ) : null}
      {visible.map((item) => (
        <ItemView
          key={`${item.kind}-${item.seq}`}
          item={item}
          fate={fates === undefined ? included : fates.fateOf(item.seq)}
          onFork={onFork}
          loadAttachment={loadAttachment}
        />
      ))}
      {pendingShown ? <PendingMessage text={pending.text} waitingForTab={waitingForTab} /> : null}
      {streamingText === '' ? null : <StreamingReply text={streamingText} />}
    </div>
  )
}

/** What an empty thread shows: what the offline model can do, and messages to try with one click. */
function EmptyConversation({ onSuggest }: { onSuggest(text: string): void }) {
  return (
    <div className="chat-empty" data-testid="chat-empty">
      <h2 className="chat-empty-title">Start the conversation</h2>
      <p className="chat-muted">The offline model answers with no network and no key, and calls real tools in this page. Try:</p>
      <ul className="chat-suggestions">
        {suggestions.map((text) => (
          <li key={text}>
            <button type="button" className="chat-chip" onClick={() => onSuggest(text)}>
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The user's message on its way into the thread (or waiting for the tab that holds the thread). */
function PendingMessage({ text, waitingForTab }: { readonly text: string; readonly waitingForTab: boolean }) {
  return (
    <article className="chat-message chat-message--user chat-pending" data-testid="pending-message" aria-label="Your message, being sent">
      <header className="chat-item-meta">
        <span className="chat-who">You</span>
        <span className="chat-badge chat-badge--pending">{waitingForTab ? 'waiting for the other tab' : 'sending'}</span>
      </header>
      <p className="chat-message-text">{text}</p>
    </article>
  )
}

/** The assistant's reply as it streams in, before it is stored. */
function StreamingReply({ text }: { readonly text: string }) {
  return (
    <article className="chat-message chat-message--assistant chat-streaming" data-testid="streaming-reply" aria-label="Assistant, replying">
      <header className="chat-item-meta">
        <span className="chat-who">Assistant</span>
        <span className="chat-badge chat-badge--pending">streaming</span>
      </header>
      <p className="chat-message-text">{text}</p>
    </article>
  )
}
