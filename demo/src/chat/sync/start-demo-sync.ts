// Loaded when the visitor turns sync on (a dynamic import from use-demo-sync.ts), with
// @threadlens/sync: the first load carries none of it.
import type { ThreadStore } from '@threadlens/store'
import { createSync, indexedDbSyncState, type ThreadSync } from '@threadlens/sync'
import { CHAT_DATABASE_NAME } from '../chat-config'
import { DEFAULT_SYNC_SERVER } from './use-demo-sync'

/** The server's base URL, checked: http or https, no credentials. */
export function checkSyncServer(server: string): URL {
  let url: URL
  try {
    url = new URL(server.trim())
  } catch {
    throw new Error(`“${server}” is not a URL: give the sync server's address, e.g. ${DEFAULT_SYNC_SERVER}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The sync server must be http or https, not ${url.protocol}`)
  if (url.username !== '' || url.password !== '') throw new Error('Put no credentials in the sync server URL.')
  return url
}

/**
 * Starts syncing the demo's threads with `server`: one stream set there
 * (`<server>/v1/stream/threadlens-demo`), its outbox and offsets in an IndexedDB database of their
 * own per server (offsets of one server mean nothing to another).
 */
export function startDemoSync(threads: ThreadStore, server: string): ThreadSync {
  const base = checkSyncServer(server).href.replace(/\/+$/, '')
  return createSync({
    threads,
    url: `${base}/v1/stream/threadlens-demo`,
    state: indexedDbSyncState({ name: `${CHAT_DATABASE_NAME}-sync:${base}` }),
    lockName: `${CHAT_DATABASE_NAME}-sync`,
  })
}
