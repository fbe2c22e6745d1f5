import { Dexie, liveQuery } from 'dexie'
import { watchRows } from './watch-rows'

/**
 * The few Dexie values the stores need besides the database itself. The stores reach them through
 * the opened database (`db.dexieRuntime`) instead of importing `dexie`, so the main entry point of
 * `@threadlens/store` loads Dexie only when a database is opened (see `openThreadlensDB`).
 */
export interface DexieRuntime {
  readonly liveQuery: typeof liveQuery
  /** The lowest key of any type (for ranges over a compound key's last part). */
  readonly minKey: unknown
  /** The highest key of any type. */
  readonly maxKey: unknown
  /** The IndexedDB transaction of the Dexie transaction scope this runs in, if any. */
  currentIdbTransaction(): IDBTransaction | undefined
  /** See `watchRows`. */
  readonly watchRows: typeof watchRows
}

export const dexieRuntime: DexieRuntime = {
  liveQuery,
  minKey: Dexie.minKey,
  maxKey: Dexie.maxKey,
  currentIdbTransaction: () => Dexie.currentTransaction?.idbtrans ?? undefined,
  watchRows,
}
