import type { Memory } from '@threadlens/core'
import { MemoryNotes } from './memory/memory-notes'
import { importNotice, type ThreadActions } from './threads/thread-actions'
import type { ThreadListSnapshot } from './threads/thread-list'
import { ThreadSidebar } from './threads/thread-sidebar'

interface ChatSidebarProps {
  readonly list: ThreadListSnapshot
  readonly activeId: string | undefined
  readonly memory: Memory | undefined
  readonly actions: ThreadActions
  onOpen(threadId: string): void
  onCreate(): void
  onClose(): void
  /** Says what an action did, in the app's notice line. */
  onNotice(notice: string): void
  /** Runs an action, showing `what` failed in the app's problem banner if it throws. */
  attempt<T>(what: string, action: () => Promise<T>): Promise<T | undefined>
}

/** The chat list and the assistant's memory notes, beside the open chat (a drawer on a phone). */
export function ChatSidebar({ list, activeId, memory, actions, onOpen, onCreate, onClose, onNotice, attempt }: ChatSidebarProps) {
  return (
    <aside id="chat-sidebar" className="chat-sidebar" aria-label="Chats and memory">
      <div className="chat-sidebar-head">
        <span className="chat-brand">threadlens</span>
        <a className="chat-link" href="?view=lab">
          Projection lab
        </a>
        <button type="button" className="chat-button chat-button--small chat-only-narrow" onClick={onClose}>
          Close
        </button>
      </div>
      {/* Repeated on purpose: props one a line, like demo/src/lab/lab-app.tsx (other components; the chat and the lab share no code). */}
      <ThreadSidebar
        list={list}
        activeId={activeId}
        onOpen={onOpen}
        onCreate={onCreate}
        onRename={(threadId, title) => void attempt('Renaming', () => actions.rename(threadId, title))}
        onExport={(item) => void attempt('Export', () => actions.exportThread(item))}
        onDelete={(threadId) => void attempt('Deleting', () => actions.remove(threadId))}
        onImport={(file) =>
          void attempt(`Importing ${file.name}`, () => actions.importFile(file)).then((imported) => {
            if (imported === undefined) return
            onOpen(imported.threadId)
            onNotice(importNotice(imported))
          })
        }
      />
      <MemoryNotes memory={memory} />
    </aside>
  )
}
