import type { ThreadStore } from '@threadlens/store'
import type { SyncStatusSource } from '@threadlens/sync'
import { createContext, useContext, useEffect, useState } from 'react'
import { SYNC_STORAGE_KEY } from '../chat-config'

/** Where `npm run sync-server` listens. */
export const DEFAULT_SYNC_SERVER = 'http://127.0.0.1:4437'

/** What the demo remembers of sync (in localStorage): whether it is on, and the server. Never a secret. */
export interface SyncSettings {
  readonly enabled: boolean
  readonly server: string
}

export interface DemoSync {
  readonly settings: SyncSettings
  /** The running sync's status; `undefined` while sync is off or starting. */
  readonly status: SyncStatusSource | undefined
  /** Why sync could not start (a bad server URL, its code not loading), else `undefined`. */
  readonly problem: string | undefined
  setEnabled(enabled: boolean): void
  setServer(server: string): void
}

function readSettings(): SyncSettings {
  let saved: Partial<SyncSettings> | null = null
  try {
    saved = JSON.parse(localStorage.getItem(SYNC_STORAGE_KEY) ?? 'null') as Partial<SyncSettings> | null
  } catch {
    // Unreadable or unavailable: off, with the default server.
  }
  return { enabled: saved?.enabled === true, server: typeof saved?.server === 'string' && saved.server !== '' ? saved.server : DEFAULT_SYNC_SERVER }
}

/**
 * Sync of the demo's threads, off until the visitor turns it on: then `start-demo-sync.ts` and
 * `@threadlens/sync` load (a dynamic import), so the first load carries none of them.
 */
export function useDemoSync(threads: ThreadStore): DemoSync {
  const [settings, setSettings] = useState(readSettings)
  const [status, setStatus] = useState<SyncStatusSource | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  useEffect(() => {
    localStorage.setItem(SYNC_STORAGE_KEY, JSON.stringify(settings))
  }, [settings])
  useEffect(() => {
    if (!settings.enabled) return undefined
    let stopped = false
    let stop: (() => Promise<void>) | undefined
    import('./start-demo-sync')
      .then(({ startDemoSync }) => {
        if (stopped) return
        const sync = startDemoSync(threads, settings.server)
        stop = () => sync.stop()
        setStatus(sync.status)
      })
      .catch((error: unknown) => {
        if (!stopped) setProblem(error instanceof Error ? error.message : String(error))
      })
    return () => {
      stopped = true
      setStatus(undefined)
      setProblem(undefined)
      void stop?.()
    }
  }, [settings.enabled, settings.server, threads])
  return {
    settings,
    status,
    problem,
    setEnabled: (enabled) => setSettings((current) => ({ ...current, enabled })),
    setServer: (server) => setSettings((current) => ({ ...current, server: server.trim() })),
  }
}

/** The app's sync, for the header's switch and the devtools (ChatShell provides it). */
export const DemoSyncContext = createContext<DemoSync | undefined>(undefined)

export function useDemoSyncContext(): DemoSync {
  const sync = useContext(DemoSyncContext)
  if (sync === undefined) throw new Error('no DemoSyncContext')
  return sync
}
