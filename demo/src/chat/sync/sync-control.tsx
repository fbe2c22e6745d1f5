import { lazy, Suspense, useState, useSyncExternalStore } from 'react'
import { useDemoSyncContext } from './use-demo-sync'

const SyncServerForm = lazy(() => import('./sync-server-form').then((module) => ({ default: module.SyncServerForm })))
const noStatus = () => () => {}

/** The header's sync switch, its status as a word (`off`, `synced`, `pending 3`, `offline`, `error`…) and the server it syncs with. */
export function SyncControl() {
  const sync = useDemoSyncContext()
  const source = sync.status
  const status = useSyncExternalStore(source?.subscribe ?? noStatus, () => source?.getSnapshot())
  const [editing, setEditing] = useState(false)
  const word = !sync.settings.enabled
    ? 'off'
    : sync.problem !== undefined
      ? 'error'
      : status === undefined
        ? 'starting'
        : status.state === 'pending'
          ? `pending ${status.pending}`
          : status.state
  return (
    <div className="chat-sync" role="group" aria-label="Sync" data-enabled={sync.settings.enabled}>
      <label className="chat-sync-toggle">
        <input
          type="checkbox"
          checked={sync.settings.enabled}
          onChange={(event) => sync.setEnabled(event.target.checked)}
          data-testid="sync-toggle"
        />
        Sync
      </label>
      <span className="chat-muted chat-sync-word" role="status" data-testid="sync-status" title={status?.error?.message ?? sync.settings.server}>
        {word}
      </span>
      {editing ? (
        <Suspense fallback={null}>
          <SyncServerForm onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <button type="button" className="chat-link-button chat-sync-server-edit" onClick={() => setEditing(true)} data-testid="sync-server-edit">
          Server…
        </button>
      )}
      {sync.problem === undefined ? null : (
        <span className="chat-error-text" role="alert" data-testid="sync-problem">
          {sync.problem}
        </span>
      )}
    </div>
  )
}
