import type { ThreadRecord } from '@threadlens/store'
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react'

export interface ThreadRowProps {
  readonly record: ThreadRecord
  readonly title: string
  readonly active: boolean
  onOpen(): void
  onRename(title: string): void
  onExport(): void
  onDelete(): void
  /** Id of the hint that says how the arrow keys move between rows and into a row's actions. */
  readonly hintId?: string
}

/**
 * Arrow keys inside the chat list: up and down move between rows (each row is one tab stop, its
 * open button), left and right between a row's open button and its actions.
 */
function moveFocus(event: KeyboardEvent<HTMLLIElement>) {
  const target = event.target as HTMLElement
  if (target.tagName === 'INPUT') return
  const row = event.currentTarget
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    const sibling = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling
    const next = sibling?.querySelector<HTMLElement>('[data-row-stop="open"]')
    if (next == null) return
    event.preventDefault()
    next.focus()
    return
  }
  if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return
  const stops = [...row.querySelectorAll<HTMLElement>('[data-row-stop]')]
  const index = stops.indexOf(target)
  if (index === -1 || stops.length === 0) return
  event.preventDefault()
  const last = stops.length - 1
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? last : event.key === 'ArrowRight' ? Math.min(last, index + 1) : Math.max(0, index - 1)
  stops[next]?.focus()
}

/** One thread in the sidebar, with rename, export and delete (which asks once more). */
export function ThreadRow({ record, title, active, onOpen, onRename, onExport, onDelete, hintId }: ThreadRowProps) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view')
  const row = useRef<HTMLLIElement>(null)
  const openButton = useRef<HTMLButtonElement>(null)
  const previousMode = useRef(mode)
  // Back from renaming or a delete prompt (whose controls are gone): focus returns to the row.
  useEffect(() => {
    const active = document.activeElement
    const focusLost = active === null || active === document.body || row.current?.contains(active) === true
    if (mode === 'view' && previousMode.current !== 'view' && focusLost) openButton.current?.focus()
    previousMode.current = mode
  }, [mode])
  const backToView = () => setMode('view')
  return (
    <li
      ref={row}
      onKeyDown={moveFocus}
      className={`chat-thread${active ? ' chat-thread--active' : ''}`}
      data-testid="thread-row"
      data-thread-id={record.id}
      data-active={active}
    >
      {mode === 'rename' ? (
        <RenameForm title={title} onRename={onRename} onClose={backToView} />
      ) : (
        <OpenButton record={record} title={title} active={active} onOpen={onOpen} hintId={hintId} buttonRef={openButton} />
      )}
      {mode === 'confirm-delete' ? (
        <DeletePrompt title={title} onDelete={onDelete} onKeep={backToView} />
      ) : mode === 'view' ? (
        <RowActions title={title} onRename={() => setMode('rename')} onExport={onExport} onDelete={() => setMode('confirm-delete')} />
      ) : null}
    </li>
  )
}

/** The title field that replaces the open button while renaming; starts from the current title. */
function RenameForm({ title, onRename, onClose }: { readonly title: string; onRename(title: string): void; onClose(): void }) {
  const [draft, setDraft] = useState(title)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (draft.trim() !== '') onRename(draft)
    onClose()
  }
  return (
    <form className="chat-thread-rename" onSubmit={submit}>
      <input
        className="chat-text"
        aria-label={`New title for ${title}`}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose()
        }}
        autoFocus
        maxLength={200}
      />
      <button type="submit" className="chat-button chat-button--small">
        Save
      </button>
    </form>
  )
}

interface OpenButtonProps {
  readonly record: ThreadRecord
  readonly title: string
  readonly active: boolean
  onOpen(): void
  readonly hintId: string | undefined
  readonly buttonRef: RefObject<HTMLButtonElement | null>
}

/** The row's one tab stop: opens the thread, and shows its title, size and fork point. */
function OpenButton({ record, title, active, onOpen, hintId, buttonRef }: OpenButtonProps) {
  return (
    <button
      ref={buttonRef}
      type="button"
      className="chat-thread-open"
      onClick={onOpen}
      aria-current={active ? 'page' : undefined}
      aria-describedby={hintId}
      data-row-stop="open"
    >
      <span className="chat-thread-title" data-testid="thread-title">
        {title}
      </span>
      <span className="chat-thread-facts">
        {record.entryCount} {record.entryCount === 1 ? 'entry' : 'entries'}
        {record.parent === null ? '' : ` · fork at #${record.parent.atSeq}`}
      </span>
    </button>
  )
}

/** The second ask before a thread is deleted; "Keep" has focus, so Enter does not delete by accident. */
function DeletePrompt({ title, onDelete, onKeep }: { readonly title: string; onDelete(): void; onKeep(): void }) {
  return (
    <div className="chat-thread-actions" role="group" aria-label={`Delete ${title}?`}>
      <button type="button" className="chat-button chat-button--small chat-button--danger" onClick={onDelete}>
        Delete for good
      </button>
      <button type="button" className="chat-button chat-button--small" onClick={onKeep} autoFocus>
        Keep
      </button>
    </div>
  )
}

/** Rename, export and delete: reached with the arrow keys from the open button, not with Tab. */
function RowActions({ title, onRename, onExport, onDelete }: { readonly title: string; onRename(): void; onExport(): void; onDelete(): void }) {
  return (
    <div className="chat-thread-actions" role="group" aria-label={`Actions for ${title}`}>
      <button type="button" className="chat-link-button" onClick={onRename} aria-label={`Rename ${title}`} tabIndex={-1} data-row-stop="action">
        Rename
      </button>
      <button
        type="button"
        className="chat-link-button"
        onClick={onExport}
        aria-label={`Export ${title} as JSONL`}
        tabIndex={-1}
        data-row-stop="action"
      >
        Export
      </button>
      <button type="button" className="chat-link-button" onClick={onDelete} aria-label={`Delete ${title}`} tabIndex={-1} data-row-stop="action">
        Delete
      </button>
    </div>
  )
}
