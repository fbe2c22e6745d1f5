import type { ThreadRecord } from '@threadlens/store'
import { useState, type FormEvent } from 'react'

export interface ThreadRowProps {
  readonly record: ThreadRecord
  readonly title: string
  readonly active: boolean
  onOpen(): void
  onRename(title: string): void
  onExport(): void
  onDelete(): void
}

/** One thread in the sidebar, with rename, export and delete (which asks once more). */
export function ThreadRow({ record, title, active, onOpen, onRename, onExport, onDelete }: ThreadRowProps) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view')
  const [draft, setDraft] = useState(title)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (draft.trim() !== '') onRename(draft)
    setMode('view')
  }
  return (
    <li className={`chat-thread${active ? ' chat-thread--active' : ''}`} data-testid="thread-row" data-thread-id={record.id} data-active={active}>
      {mode === 'rename' ? (
        <form className="chat-thread-rename" onSubmit={submit}>
          <input
            className="chat-text"
            aria-label={`New title for ${title}`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setMode('view')
            }}
            autoFocus
            maxLength={200}
          />
          <button type="submit" className="chat-button chat-button--small">
            Save
          </button>
        </form>
      ) : (
        <button type="button" className="chat-thread-open" onClick={onOpen} aria-current={active ? 'page' : undefined}>
          <span className="chat-thread-title" data-testid="thread-title">
            {title}
          </span>
          <span className="chat-thread-facts">
            {record.entryCount} {record.entryCount === 1 ? 'entry' : 'entries'}
            {record.parent === null ? '' : ` · fork at #${record.parent.atSeq}`}
          </span>
        </button>
      )}
      {mode === 'confirm-delete' ? (
        <div className="chat-thread-actions" role="group" aria-label={`Delete ${title}?`}>
          <button type="button" className="chat-button chat-button--small chat-button--danger" onClick={onDelete}>
            Delete for good
          </button>
          <button type="button" className="chat-button chat-button--small" onClick={() => setMode('view')}>
            Keep
          </button>
        </div>
      ) : mode === 'view' ? (
        <div className="chat-thread-actions" role="group" aria-label={`Actions for ${title}`}>
          <button
            type="button"
            className="chat-link-button"
            onClick={() => {
              setDraft(title)
              setMode('rename')
            }}
            aria-label={`Rename ${title}`}
          >
            Rename
          </button>
          <button type="button" className="chat-link-button" onClick={onExport} aria-label={`Export ${title} as JSONL`}>
            Export
          </button>
          <button type="button" className="chat-link-button" onClick={() => setMode('confirm-delete')} aria-label={`Delete ${title}`}>
            Delete
          </button>
        </div>
      ) : null}
    </li>
  )
}
