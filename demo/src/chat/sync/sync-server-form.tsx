import { useId, useState } from 'react'
import { useDemoSyncContext } from './use-demo-sync'

/** The sync server's address, edited in the header (loaded when the visitor asks for it). */
export function SyncServerForm({ onDone }: { onDone(): void }) {
  const sync = useDemoSyncContext()
  const [draft, setDraft] = useState(sync.settings.server)
  const fieldId = useId()
  return (
    <form
      className="chat-sync-server"
      onSubmit={(event) => {
        event.preventDefault()
        sync.setServer(draft)
        onDone()
      }}
    >
      <label htmlFor={fieldId}>Sync server</label>
      <input
        id={fieldId}
        className="chat-input"
        type="url"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        data-testid="sync-server"
        required
        autoFocus
      />
      <button type="submit" className="chat-button">
        Use
      </button>
    </form>
  )
}
