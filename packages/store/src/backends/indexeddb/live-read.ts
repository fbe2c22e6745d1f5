import type { ThreadlensDB } from './threadlens-db'

/**
 * Reads with `query` now and again after every commit that touched what it read, in this tab or
 * another (Dexie's `liveQuery`), and hands each result to `next`. The first failure, a stopped
 * database included, goes to `fail` as the store's error and ends it. Returns the function that
 * stops it; nothing reaches `next` or `fail` after that.
 */
export function liveRead<T>(
  db: ThreadlensDB,
  operation: string,
  query: () => Promise<T>,
  next: (value: T) => void,
  fail: (error: unknown) => void,
): () => void {
  let stopped = false
  const subscription = db.dexieRuntime
    .liveQuery(async () => {
      if (db.status.state === 'stopped') throw db.stoppedError(operation)
      return query()
    })
    .subscribe({
      next: (value) => {
        if (!stopped) next(value)
      },
      error: (error: unknown) => {
        if (stopped) return
        fail(db.toError(error, operation))
        stop()
      },
    })
  function stop(): void {
    stopped = true
    subscription.unsubscribe()
  }
  return stop
}
