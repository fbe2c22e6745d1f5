import { StorageError } from '../../errors'
import type { OpenThreadlensDBOptions, ThreadlensDB } from './threadlens-db'

/**
 * Creates the threadlens database of an app (one per app or per user); IndexedDB opens it on first
 * use. Dexie (about 32 KB gzip) loads here, on the first call, not with `@threadlens/store`: the app
 * paints before it is parsed, and an app that only keeps memory-backed stores never loads it.
 * Rejects with `InvalidStoreOptionsError` for bad options, and with a `StorageError` (code
 * `unknown`) when the database code itself could not be loaded (e.g. offline after a new deploy).
 */
export async function openThreadlensDB(options: OpenThreadlensDBOptions): Promise<ThreadlensDB> {
  let loaded: typeof import('./threadlens-db')
  try {
    loaded = await import('./threadlens-db')
  } catch (error) {
    throw new StorageError(
      'unknown',
      'open',
      'The database code (Dexie) could not be loaded, so no database was opened. Check the connection and reload the page.',
      { cause: error },
    )
  }
  return new loaded.ThreadlensDB(options)
}
