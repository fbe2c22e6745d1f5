import { type Entry } from '@threadlens/core'
import { WindowRead } from '@threadlens/core/internal'
import type { ThreadRow } from '../../rows'
import type { ThreadlensDB } from './threadlens-db'
import { newestFirstPage, readEntries, readEntriesNewestFirst, readNewestRows } from './entry-reads'
import type { LoadWindowOptions } from '../../threads/thread-store'

const firstPageSize = 64
const maxPageSize = 4096

/**
 * The first page of a windowed load, asked for before the thread's row is in (the read needs only
 * the thread id): pass it to `loadWindowEntries`, which saves a round trip to the storage.
 */
export function readWindowFirstPage(db: ThreadlensDB, threadId: string): Promise<readonly unknown[]> {
  return readNewestRows(db, threadId, firstPageSize)
}

/**
 * The newest entries of a thread that a projection under `options.policy` can use, read inside
 * the caller's transaction. The store only reads: pages newest first until core's `WindowRead`
 * (the projector's cost model, with the proof of why the window is enough) says no projection can
 * reach further, then what the projector always looks at (latest user message, pins, the summary
 * in use) and every tool call unit the window cuts through. A cache-friendly policy's grid is
 * anchored at the window's start (stable while the session follows the thread), so its window
 * reads one chunk more than the budget rather than reaching back to the start of history: the
 * projection is valid and as full, though its window may start on another grid point than a
 * projection of the whole thread would.
 * `firstPage`: the thread's newest rows from `readWindowFirstPage` in the same transaction, if the
 * caller asked for them early (default: the walk reads its first page itself).
 */
export async function loadWindowEntries(
  db: ThreadlensDB,
  row: ThreadRow,
  options: LoadWindowOptions,
  operation: string,
  firstPage?: Promise<readonly unknown[]>,
): Promise<Entry[]> {
  const threadId = row.id
  const lastSeq = row.lastSeq
  if (lastSeq < 0) return []
  const plan = new WindowRead(options.policy, options.counter, row.facts, lastSeq)
  const { floor } = plan

  // The walk: newest first, page by page, until the plan says no projection reaches further.
  const lookups = new FirstSeqLookups(db, threadId)
  const newestFirst: Entry[] = []
  let pageSize = firstPageSize
  walk: while (plan.needsMore) {
    const lowest = plan.lowest
    const page =
      firstPage !== undefined && lowest === lastSeq + 1
        ? newestFirstPage(upTo(await firstPage, lastSeq), threadId, floor, lastSeq, operation)
        : await readEntriesNewestFirst(db, threadId, floor, lowest - 1, pageSize, operation)
    if (page.length === 0) break
    const walkedBefore = newestFirst.length
    for (let position = 0; position < page.length; position++) {
      const entry = page.entry(position)
      newestFirst.push(entry)
      // The rest of the page is not needed: the window stays as small as the proof allows.
      if (plan.add(entry)) break walk
    }
    // Asked now, the storage answers these while the next page is on its way (see `FirstSeqLookups`).
    lookups.askModelCalls(newestFirst, walkedBefore)
    pageSize = nextPageSize(pageSize, newestFirst.length, plan.spent, plan.reach)
  }
  let window = newestFirst.reverse()
  let start = plan.lowest

  // What the projector always looks at, wherever it is.
  const required = plan.requiredFrom(start)
  if (required < start) {
    window = [...(await readEntries(db, threadId, required, start - 1, operation)), ...window]
    start = required
  }

  return withWholeToolUnits(db, threadId, floor, window, start, operation, lookups)
}

/**
 * Rows read newest first, from the one at `lastSeq` on. A row past the thread's last seq is damage
 * that a read of the whole thread (`0..lastSeq`) never sees either; the window leaves it out too.
 */
function upTo(rows: readonly unknown[], lastSeq: number): readonly unknown[] {
  let skip = 0
  while (skip < rows.length && ((rows[skip] as { readonly seq?: unknown }).seq as number) > lastSeq) skip++
  return skip === 0 ? rows : rows.slice(skip)
}

/**
 * The next page of the walk: what the cost per entry so far says the walk still needs, a quarter
 * more and a first page beyond that, so that most walks end with their second page; never less than
 * the page before (a walk the estimate fell short of is an unusual thread, e.g. of free entries).
 * Reading a few dozen entries too many costs far less than another round trip to the storage.
 */
function nextPageSize(previous: number, walked: number, spent: number, reach: number): number {
  if (spent <= 0) return Math.min(maxPageSize, previous * 2)
  const estimate = Math.ceil((Math.max(0, reach - spent) / spent) * walked * 1.25) + firstPageSize
  return Math.min(maxPageSize, Math.max(previous, estimate))
}

/**
 * Extends the window (starting at `start`) until it holds whole tool call units: a result's call
 * and every member of a model call. Only the lowest seq found matters (where the window must start).
 */
async function withWholeToolUnits(
  db: ThreadlensDB,
  threadId: string,
  floor: number,
  initial: Entry[],
  initialStart: number,
  operation: string,
  lookups: FirstSeqLookups,
): Promise<Entry[]> {
  let window = initial
  let start = initialStart
  let fresh: readonly Entry[] = window
  for (;;) {
    const inWindow = new Set<string>()
    for (const entry of window) if (entry.kind === 'tool_call') inWindow.add(entry.refs.toolCallId as string)
    lookups.askModelCalls(fresh, 0)
    lookups.askToolCalls(fresh, inWindow)
    let extended = start
    for (const seq of await lookups.answers(start)) if (seq >= floor && seq < extended) extended = seq
    if (extended === start) break
    fresh = await readEntries(db, threadId, extended, start - 1, operation)
    window = [...fresh, ...window]
    start = extended
  }
  return window
}

/**
 * The lowest seq stored under keys of two indexes: a model call's first member (`refs.callId`) and
 * a tool call (`refs.toolCallId`). A window of a few hundred model calls asks for hundreds of keys:
 * through Dexie each lookup costs about a quarter of a millisecond of script, so the lookups go to
 * the transaction's own IndexedDB indexes (`getKey`, the first primary key under a key), and one
 * Dexie request after them is awaited: requests of one transaction complete in the order they were
 * made, so when it has, every lookup has, and the code after the await still runs in Dexie's
 * transaction scope. The walk asks for each page's model calls before it reads the next page, so
 * the storage answers them while the script is busy elsewhere (the panel's first render, parsing).
 */
class FirstSeqLookups {
  readonly #db: ThreadlensDB
  readonly #threadId: string
  readonly #askedCallIds = new Set<string>()
  readonly #askedToolCallIds = new Set<string>()
  #pending: IDBRequest[] = []
  #store: IDBObjectStore | undefined

  constructor(db: ThreadlensDB, threadId: string) {
    this.#db = db
    this.#threadId = threadId
  }

  /** The first member of each model call (tool calls and assistant text) among `entries` from `from` on. */
  askModelCalls(entries: readonly Entry[], from: number): void {
    for (let position = from; position < entries.length; position++) {
      const entry = entries[position] as Entry
      const { callId } = entry.refs
      if (callId === undefined || (entry.kind !== 'tool_call' && entry.kind !== 'message') || this.#askedCallIds.has(callId)) continue
      this.#askedCallIds.add(callId)
      this.#ask('[threadId+refs.callId]', [this.#threadId, callId])
    }
  }

  /** The call of each result among `entries` whose call is not in the window. */
  askToolCalls(entries: readonly Entry[], inWindow: ReadonlySet<string>): void {
    for (const entry of entries) {
      const { toolCallId } = entry.refs
      if (entry.kind !== 'tool_result' || toolCallId === undefined || inWindow.has(toolCallId) || this.#askedToolCallIds.has(toolCallId)) continue
      this.#askedToolCallIds.add(toolCallId)
      this.#ask('[threadId+kind+refs.toolCallId]', [this.#threadId, 'tool_call', toolCallId])
    }
  }

  /** The seqs found by the lookups asked since the last call (keys with no entry give nothing). */
  async answers(anySeq: number): Promise<number[]> {
    const requests = this.#pending
    this.#pending = []
    if (requests.length === 0) return []
    await this.#db.entries.where('[threadId+seq]').equals([this.#threadId, anySeq]).primaryKeys()
    const seqs: number[] = []
    for (const request of requests) {
      const first = request.result as [string, number] | undefined
      if (first !== undefined) seqs.push(first[1])
    }
    return seqs
  }

  #ask(index: string, key: IDBValidKey): void {
    this.#pending.push(this.#objectStore().index(index).getKey(key))
  }

  #objectStore(): IDBObjectStore {
    if (this.#store !== undefined) return this.#store
    const transaction = this.#db.dexieRuntime.currentIdbTransaction()
    // Always called inside the store's read transaction (`loadWindowEntries`' contract).
    if (transaction === undefined) throw new Error('[threadlens] the windowed load runs inside a read transaction')
    this.#store = transaction.objectStore(this.#db.entries.name)
    return this.#store
  }
}
