import type { ThreadRecord } from '@threadlens/store'
import { useId, useRef, type ChangeEvent } from 'react'
import { titleOf, type ThreadListSnapshot } from './thread-list'
import { ThreadRow } from './thread-row'

export interface ThreadSidebarProps {
  readonly list: ThreadListSnapshot
  readonly activeId: string | undefined
  onOpen(threadId: string): void
  onCreate(): void
  onRename(threadId: string, title: string): void
  onExport(record: ThreadRecord): void
  onDelete(threadId: string): void
  onImport(file: File): void
}

/** Every chat, newest first; new, import, and per-thread rename, export and delete. */
export function ThreadSidebar({ list, activeId, onOpen, onCreate, onRename, onExport, onDelete, onImport }: ThreadSidebarProps) {
  const fileInput = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file !== undefined) onImport(file)
  }
  return (
    <nav className="chat-threads" aria-label="Chats">
      <div className="chat-row">
        <button type="button" className="chat-button chat-button--primary" onClick={onCreate}>
          New chat
        </button>
        <button type="button" className="chat-button" onClick={() => fileInput.current?.click()}>
          Import…
        </button>
        <input
          ref={fileInput}
          className="chat-visually-hidden"
          type="file"
          accept=".jsonl,.json,application/json,application/x-ndjson"
          aria-label="Import a chat (JSONL export or OpenAI messages JSON)"
          onChange={onFile}
          tabIndex={-1}
        />
      </div>
      {list.status === 'loading' ? (
        <p className="chat-muted" role="status">
          Loading chats…
        </p>
      ) : null}
      {list.status === 'error' ? (
        <p className="chat-error-text" role="alert">
          The chat list could not be read: {list.error instanceof Error ? list.error.message : String(list.error)}
        </p>
      ) : null}
      {list.status === 'ready' && list.records.length === 0 ? <p className="chat-muted">No chats yet.</p> : null}
      <p id={hintId} className="chat-visually-hidden">
        Each chat is one tab stop: arrow up and down move between chats, arrow right reaches its rename, export and delete.
      </p>
      <ul className="chat-thread-list" data-testid="thread-list">
        {list.records.map((record) => {
          const title = titleOf(record)
          return (
            <ThreadRow
              key={record.id}
              record={record}
              title={title}
              active={record.id === activeId}
              onOpen={() => onOpen(record.id)}
              onRename={(next) => onRename(record.id, next)}
              onExport={() => onExport(record)}
              onDelete={() => onDelete(record.id)}
              hintId={hintId}
            />
          )
        })}
      </ul>
    </nav>
  )
}
