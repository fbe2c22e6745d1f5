import { Dexie, RangeSet, rangesOverlap, type IndexableType, type ObservabilitySet } from 'dexie'

/** Rows of a table to watch: the rows with these primary keys, or every row (`keys` left out). */
export interface WatchedRows {
  readonly table: string
  readonly keys?: readonly IndexableType[]
}

/**
 * Calls `listener` after each commit that wrote any of `watched`, in this tab or another: Dexie's
 * `storagemutated` event, which carries this tab's commits as they complete and other tabs' through
 * a BroadcastChannel (the same signal its `liveQuery` re-runs on). It says what changed, never
 * the new values: read them. `listener` gets Dexie's set of changed parts (the same object for every
 * listener of one commit). Returns the function that stops it.
 */
export function watchRows(databaseName: string, watched: readonly WatchedRows[], listener: (changed: ObservabilitySet) => void): () => void {
  const targets = watched.map(({ table, keys }) => ({
    part: `idb://${databaseName}/${table}/`,
    keys: keys === undefined ? undefined : keys.reduce<RangeSet>((set, key) => set.addKey(key), new RangeSet()),
  }))
  const onMutated = (parts: ObservabilitySet): void => {
    const touched = targets.some(({ part, keys }) => {
      const changed = parts[part]
      if (changed === undefined) return false
      return keys === undefined || rangesOverlap(changed, keys)
    })
    if (touched) listener(parts)
  }
  Dexie.on('storagemutated', onMutated)
  return () => Dexie.on.storagemutated.unsubscribe(onMutated)
}
