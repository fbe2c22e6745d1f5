import { conversationView, reasoningView, type ConversationMessage, type ReasoningItem, type Thread } from '@threadlens/core'
import { useThread } from '@threadlens/react'
import { useState } from 'react'
import { CollapsibleText } from '../components/collapsible-text'
import { VirtualList } from '../components/virtual-list'
import { usePanel } from '../panel/panel-context'

const conversations = new WeakMap<Thread, ConversationMessage[]>()
const reasonings = new WeakMap<Thread, ReasoningItem[]>()

function memo<T>(cache: WeakMap<Thread, T>, thread: Thread, make: (thread: Thread) => T): T {
  let value = cache.get(thread)
  if (value === undefined) cache.set(thread, (value = make(thread)))
  return value
}

type Mode = 'both' | 'conversation' | 'reasoning'

/** The chat UI's conversation view beside the reasoning view (with the tool trace). */
export function ViewsTab() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const [mode, setMode] = useState<Mode>('both')
  if (thread === undefined) return <p className="tl-muted">loading the thread…</p>
  const conversation = memo(conversations, thread, conversationView)
  const reasoning = memo(reasonings, thread, reasoningView)
  return (
    <>
      <div className="tl-row" role="radiogroup" aria-label="views">
        {(['both', 'conversation', 'reasoning'] as const).map((id) => (
          <button key={id} type="button" className="tl-button" role="radio" aria-checked={mode === id} data-testid={`view-${id}`} onClick={() => setMode(id)}>
            {id === 'both' ? 'side by side' : id}
          </button>
        ))}
      </div>
      <div className="tl-split">
        {mode === 'reasoning' ? null : (
          <section aria-label="conversation view" data-testid="conversation-view">
            <h3 className="tl-h">
              Conversation <span className="tl-muted">({conversation.length} messages)</span>
            </h3>
            <VirtualList
              count={conversation.length}
              rowHeight={48}
              measure
              followEnd
              label="conversation view"
              rowKey={(index) => conversation[index]?.seq ?? index}
              renderRow={(index) => <ConversationRow message={conversation[index] as ConversationMessage} />}
            />
          </section>
        )}
        {mode === 'conversation' ? null : (
          <section aria-label="reasoning view" data-testid="reasoning-view">
            <h3 className="tl-h">
              Reasoning <span className="tl-muted">({reasoning.length} items)</span>
            </h3>
            <VirtualList
              count={reasoning.length}
              rowHeight={56}
              measure
              followEnd
              label="reasoning view"
              rowKey={(index) => reasoning[index]?.seq ?? index}
              renderRow={(index) => <ReasoningRow item={reasoning[index] as ReasoningItem} />}
            />
          </section>
        )}
      </div>
    </>
  )
}

function ConversationRow({ message }: { readonly message: ConversationMessage }) {
  return (
    <div className="tl-view-item" data-testid="view-message" data-seq={message.seq}>
      <span className="tl-role">{message.role}</span> <span className="tl-muted tl-mono">#{message.seq}</span>
      {message.interrupted ? <span className="tl-badge tl-warn">interrupted</span> : null}
      <CollapsibleText text={message.content} />
    </div>
  )
}

function ReasoningRow({ item }: { readonly item: ReasoningItem }) {
  if (item.kind === 'message') return <ConversationRow message={{ seq: item.seq, role: item.role, content: item.content, createdAt: 0, interrupted: item.interrupted }} />
  const status = item.status === 'ok' ? 'tl-ok' : item.status === 'error' ? 'tl-danger' : 'tl-warn'
  return (
    <div className="tl-view-item" data-testid="view-tool" data-seq={item.seq}>
      <span className="tl-role">tool · {item.name}</span> <span className="tl-muted tl-mono">#{item.seq} {item.toolCallId}</span>{' '}
      <span className={`tl-badge ${status}`}>{item.status}</span>
      {item.truncated === undefined ? null : <span className="tl-badge tl-warn">cut from {item.truncated.totalBytes} bytes</span>}
      <CollapsibleText pre text={JSON.stringify(item.arguments)} limit={300} />
      {item.output === undefined ? null : <CollapsibleText pre text={item.output} limit={400} />}
    </div>
  )
}
