import { type Thread } from '@threadlens/core'
import { conversationView, reasoningView, type ConversationMessage, type EncodingName, type ReasoningItem } from '@threadlens/core/views'
import { useThread } from '@threadlens/react'
import { CollapsibleText } from '../../components/collapsible-text'
import { TokenToggle } from '../../components/token-text'
import { VirtualList } from '../../components/virtual-list'
import { usePanel } from '../../panel/panel-context'
import { useRememberedChoice } from '../../panel/use-remembered-filter'

const conversations = new WeakMap<Thread, ConversationMessage[]>()
const reasonings = new WeakMap<Thread, ReasoningItem[]>()

function memo<T>(cache: WeakMap<Thread, T>, thread: Thread, make: (thread: Thread) => T): T {
  let value = cache.get(thread)
  if (value === undefined) cache.set(thread, (value = make(thread)))
  return value
}

type Mode = 'both' | 'conversation' | 'reasoning'
const modes: readonly Mode[] = ['both', 'conversation', 'reasoning']

/** What each view is for, in one line. */
export const viewExplanations = {
  conversation: 'What the chat UI shows: user and assistant text only, tool traffic hidden.',
  reasoning: 'What the model works from: the conversation plus every tool call with its arguments and result.',
} as const

/** The chat UI's conversation view beside the reasoning view (with the tool trace), each explained; any message's tokens on demand. */
export function ViewsTab() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const [mode, setMode] = useRememberedChoice<Mode>('views-mode', modes, 'both')
  // Token boundaries in the policy's encoding; a heuristic policy has none, so they are shown in o200k_base.
  const encoding: EncodingName = panel.policy.tokenizer === 'cl100k_base' ? 'cl100k_base' : 'o200k_base'
  if (thread === undefined) return <p className="tl-muted">loading the thread…</p>
  const conversation = memo(conversations, thread, conversationView)
  const reasoning = memo(reasonings, thread, reasoningView)
  return (
    <>
      <div className="tl-row" role="radiogroup" aria-label="views">
        {modes.map((id) => (
          <button
            key={id}
            type="button"
            className="tl-button"
            role="radio"
            aria-checked={mode === id}
            data-testid={`view-${id}`}
            onClick={() => setMode(id)}
          >
            {id === 'both' ? 'side by side' : id}
          </button>
        ))}
      </div>
      <div className="tl-split">
        {/* Repeated on purpose: the conversation column and the reasoning column below have one layout; a shared component
            for them made the tab's chunk bigger gzipped. */}
        {mode === 'reasoning' ? null : (
          <section aria-label="conversation view" data-testid="conversation-view" className="tl-view-conversation">
            <h3 className="tl-h">
              Conversation <span className="tl-muted">({conversation.length} messages)</span>
            </h3>
            <p className="tl-view-explain" data-testid="conversation-explain">
              {viewExplanations.conversation}
            </p>
            <VirtualList
              count={conversation.length}
              rowHeight={48}
              measure
              followEnd
              label="conversation view"
              rowKey={(index) => conversation[index]?.seq ?? index}
              renderRow={(index) => <ConversationRow message={conversation[index] as ConversationMessage} encoding={encoding} bubble />}
            />
          </section>
        )}
        {mode === 'conversation' ? null : (
          <section aria-label="reasoning view" data-testid="reasoning-view" className="tl-view-reasoning">
            <h3 className="tl-h">
              Reasoning <span className="tl-muted">({reasoning.length} items)</span>
            </h3>
            <p className="tl-view-explain" data-testid="reasoning-explain">
              {viewExplanations.reasoning}
            </p>
            <VirtualList
              count={reasoning.length}
              rowHeight={56}
              measure
              followEnd
              label="reasoning view"
              rowKey={(index) => reasoning[index]?.seq ?? index}
              renderRow={(index) => <ReasoningRow item={reasoning[index] as ReasoningItem} encoding={encoding} />}
            />
          </section>
        )}
      </div>
    </>
  )
}

function ConversationRow({
  message,
  encoding,
  bubble = false,
}: {
  readonly message: ConversationMessage
  readonly encoding: EncodingName
  readonly bubble?: boolean
}) {
  return (
    <div className="tl-view-item" data-testid="view-message" data-seq={message.seq}>
      <span className="tl-role">{message.role}</span> <span className="tl-muted tl-mono">#{message.seq}</span>
      {message.interrupted ? <span className="tl-badge tl-warn">interrupted</span> : null} <TokenToggle text={message.content} encoding={encoding} />
      <CollapsibleText text={message.content} className={bubble ? `tl-bubble-${message.role === 'user' ? 'user' : 'assistant'}` : ''} />
    </div>
  )
}

function ReasoningRow({ item, encoding }: { readonly item: ReasoningItem; readonly encoding: EncodingName }) {
  if (item.kind === 'message')
    return (
      <ConversationRow
        message={{ seq: item.seq, role: item.role, content: item.content, createdAt: 0, interrupted: item.interrupted }}
        encoding={encoding}
      />
    )
  const status = item.status === 'ok' ? 'tl-ok' : item.status === 'error' ? 'tl-danger' : 'tl-warn'
  return (
    <div className="tl-view-item" data-testid="view-tool" data-seq={item.seq}>
      <span className="tl-role">tool · {item.name}</span>{' '}
      <span className="tl-muted tl-mono">
        #{item.seq} {item.toolCallId}
      </span>{' '}
      <span className={`tl-badge ${status}`}>{item.status}</span>
      {item.truncated === undefined ? null : <span className="tl-badge tl-warn">cut from {item.truncated.totalBytes} bytes</span>}{' '}
      <TokenToggle text={item.output ?? JSON.stringify(item.arguments)} encoding={encoding} />
      <CollapsibleText pre text={JSON.stringify(item.arguments)} limit={300} />
      {item.output === undefined ? null : <CollapsibleText pre text={item.output} limit={400} />}
    </div>
  )
}
