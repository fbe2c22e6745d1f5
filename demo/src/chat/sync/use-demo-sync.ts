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
  const [running, setRunning] = useState<{ readonly source: SyncStatusSource; readonly server: string } | undefined>(undefined)
  const [problem, setProblem] = useState<{ readonly message: string; readonly server: string } | undefined>(undefined)
  useEffect(() => {
    localStorage.setItem(SYNC_STORAGE_KEY, JSON.stringify(settings))
  }, [settings])
  useEffect(() => {
    if (!settings.enabled) return undefined
    let stopped = false
    let stop: (() => Promise<void>) | undefined
    const server = settings.server
    import('./start-demo-sync')
      .then(({ startDemoSync }) => {
        if (stopped) return
        const sync = startDemoSync(threads, server)
        stop = () => sync.stop()
        setRunning({ source: sync.status, server })
      })
      .catch((error: unknown) => {
        if (!stopped) setProblem({ message: error instanceof Error ? error.message : String(error), server })
      })
    return () => {
      stopped = true
      setRunning(undefined)
      setProblem(undefined)
      void stop?.()
    }
  }, [settings.enabled, settings.server, threads])
  return {
    settings,
    status: running?.server === settings.server ? running.source : undefined,
    problem: problem?.server === settings.server ? problem.message : undefined,
    setEnabled: (enabled) => setSettings((current) => ({ ...current, enabled })),
    setServer: (server) => setSettings((current) => ({ ...current, server: server.trim() })),
  }
}

/** The app's sync, for the header's switch and the devtools (ChatShell provides it). */
export const DemoSyncContext = createContext<DemoSync | undefined>(undefined)

export function useDemoSyncContext(): DemoSync {
  const sync = useContext(DemoSyncContext)
  if (sync === undefined) throw new Error('[threadlens] demo: the sync switch renders inside <DemoSyncContext.Provider>')
  return sync
}
