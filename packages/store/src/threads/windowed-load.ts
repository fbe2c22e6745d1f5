import { type Entry } from '@threadlens/core'
import { inputBudget, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '@threadlens/core/internal'
import type { ThreadRow } from '../database/rows'
import type { ThreadlensDB } from '../database/threadlens-db'
import { checkStoredEntry, readEntries, readEntriesNewestFirst } from './entry-reads'
import type { LoadWindowOptions } from './thread-store'

const firstPageSize = 64
const maxPageSize = 4096

/**
 * The newest entries of a thread that a projection under `options.policy` can use, read inside
 * the caller's transaction. Why the window is enough, in short: the projector walks units newest
 * first and stops at the first that does not fit the budget; the walk below sums, per entry, no
 * more than the projector would spend on it, so once the sum exceeds the budget the projector
 * cannot get past the window. Two sums run at once because the summary checkpoint may or may not
 * fit: one skips the entries it covers, the other does not (and is enough once it exceeds the
 * summary's own cost, since the summary did not fit in what was left). Then the window is
 * extended to hold the latest user message, every visible pinned entry, the summary in use, and
 * every tool call unit it cuts through. A cache-friendly policy's grid is anchored at the window's
 * start (stable while the session follows the thread), so its window reads one chunk more than the
 * budget rather than reaching back to the start of history: the projection is valid and as full,
 * though its window may start on another grid point than a projection of the whole thread would.
 */
export async function loadWindowEntries(db: ThreadlensDB, row: ThreadRow, options: LoadWindowOptions, operation: string): Promise<Entry[]> {
  const { policy, counter } = options
  const threadId = row.id
  const lastSeq = row.lastSeq
  if (lastSeq < 0) return []
  const { facts } = row
  // Nothing before the newest reset is ever projected; keep at least the newest entry.
  const floor = Math.min(facts.resetSeq + 1, lastSeq)
  const budget = inputBudget(policy)
  const include = new Set(policy.includeKinds)
  const summary = include.has('summary') && facts.summary !== null && facts.summary.toSeq >= floor ? facts.summary : null

  let summaryCost = 0
  if (summary !== null) {
    const raw = await db.entries.get([threadId, summary.seq])
    const entry = checkStoredEntry(raw, threadId, summary.seq, operation)
    if (entry.kind === 'summary') summaryCost = MESSAGE_OVERHEAD_TOKENS + counter.countCached(policy.summaryPrefix + entry.payload.content)
  }
  const coveredFrom = summary === null ? Number.POSITIVE_INFINITY : Math.max(floor, summary.fromSeq)
  const coveredTo = summary === null ? -1 : summary.toSeq

  // A cache-friendly window moves in chunks: hold one chunk beyond the budget so it can fill it.
  const reach = policy.cacheFriendly ? budget + Math.floor(budget * (1 - policy.cacheLowWaterRatio)) : budget

  // The walk: newest first, page by page.
  let sumOutsideSummary = 0
  let sumAll = 0
  const costOf = projectedCostModel(options, include)
  const enough = (lowest: number): boolean => {
    if (summary === null) return sumAll > reach
    const whenSummaryUsed = sumOutsideSummary > reach || (lowest <= coveredTo && coveredFrom <= floor)
    const whenSummaryUnused = sumAll > reach || sumAll >= summaryCost
    return whenSummaryUsed && whenSummaryUnused
  }

  const newestFirst: Entry[] = []
  let lowest = lastSeq + 1
  let pageSize = firstPageSize
  walk: while (lowest > floor && !enough(lowest)) {
    const page = await readEntriesNewestFirst(db, threadId, floor, lowest - 1, pageSize, operation)
    if (page.length === 0) break
    for (let position = 0; position < page.length; position++) {
      const entry = page.entry(position)
      newestFirst.push(entry)
      lowest = entry.seq
      const cost = costOf(entry)
      sumAll += cost
      if (entry.seq < coveredFrom || entry.seq > coveredTo) sumOutsideSummary += cost
      // The rest of the page is not needed: the window stays as small as the proof allows.
      if (enough(lowest)) break walk
    }
    pageSize = Math.min(maxPageSize, pageSize * 2)
  }
  let window = newestFirst.reverse()
  let start = lowest

  // What the projector always looks at, wherever it is.
  let required = start
  if (facts.lastUserSeq >= floor) required = Math.min(required, facts.lastUserSeq)
  for (const pinned of facts.pinnedSeqs) if (pinned >= floor) required = Math.min(required, pinned)
  if (summary !== null) required = Math.min(required, summary.toSeq, summary.seq)
  if (required < start) {
    window = [...(await readEntries(db, threadId, required, start - 1, operation)), ...window]
    start = required
  }

  return withWholeToolUnits(db, threadId, floor, window, start, operation)
}

/**
 * Per entry, no more than the projector would spend on it: a tool call is counted with its result
 * (met first, walking newest first). Outside the last turns boundary isolation sends a tool unit
 * not at all, so its entries count as nothing; masking, pruning and dedupe keep the call and
 * shorten the result to a text that still costs at least its message overhead.
 */
function projectedCostModel(options: LoadWindowOptions, include: ReadonlySet<string>): (entry: Entry) => number {
  const { policy, counter } = options
  const toolsIncluded = include.has('tool_call') && include.has('tool_result')
  const toolsMayVanish = policy.toolTrace === 'boundary'
  const resultsMayShrink = policy.toolTrace === 'masked' || policy.dedupeToolResults || policy.pruneToolOutputsOverTokens !== undefined
  const pendingResultTokens = new Map<string, number>()
  return (entry: Entry): number => {
    switch (entry.kind) {
      case 'message':
        return include.has('message') ? counter.countEntry(entry) : 0
      case 'tool_result':
        // Counted with its call: a result whose call is hidden is an orphan and costs nothing.
        if (toolsIncluded && !toolsMayVanish) pendingResultTokens.set(entry.refs.toolCallId as string, resultsMayShrink ? MESSAGE_OVERHEAD_TOKENS : counter.countEntry(entry))
        return 0
      case 'tool_call': {
        if (!toolsIncluded || toolsMayVanish) return 0
        const toolCallId = entry.refs.toolCallId as string
        const result = pendingResultTokens.get(toolCallId)
        if (result !== undefined) {
          pendingResultTokens.delete(toolCallId)
          return counter.countEntry(entry) + result
        }
        // Unresolved: dropped calls cost nothing, interrupted ones at least the call.
        return policy.unresolvedToolCalls === 'drop' ? 0 : counter.countEntry(entry)
      }
      default:
        return 0
    }
  }
}

/**
 * Extends the window (starting at `start`) until it holds whole tool call units: a result's call
 * and every member of a model call. Only the lowest seq found matters (where the window must start).
 */
async function withWholeToolUnits(db: ThreadlensDB, threadId: string, floor: number, initial: Entry[], initialStart: number, operation: string): Promise<Entry[]> {
  let window = initial
  let start = initialStart
  const askedToolCallIds = new Set<string>()
  const askedCallIds = new Set<string>()
  let fresh: readonly Entry[] = window
  for (;;) {
    const inWindow = new Set<string>()
    for (const entry of window) if (entry.kind === 'tool_call') inWindow.add(entry.refs.toolCallId as string)
    const toolCallKeys: [string, string, string][] = []
    const callKeys: [string, string][] = []
    for (const entry of fresh) {
      const { toolCallId, callId } = entry.refs
      if (entry.kind === 'tool_result' && toolCallId !== undefined && !inWindow.has(toolCallId) && !askedToolCallIds.has(toolCallId)) {
        askedToolCallIds.add(toolCallId)
        toolCallKeys.push([threadId, 'tool_call', toolCallId])
      }
      if (callId !== undefined && (entry.kind === 'tool_call' || entry.kind === 'message') && !askedCallIds.has(callId)) {
        askedCallIds.add(callId)
        callKeys.push([threadId, callId])
      }
    }
    const found = await firstSeqs(db, threadId, start, [
      ['[threadId+kind+refs.toolCallId]', toolCallKeys],
      ['[threadId+refs.callId]', callKeys],
    ])
    let extended = start
    for (const seq of found) if (seq >= floor && seq < extended) extended = seq
    if (extended === start) break
    fresh = await readEntries(db, threadId, extended, start - 1, operation)
    window = [...fresh, ...window]
    start = extended
  }
  return window
}

/**
 * The lowest seq stored under each key of each index (keys with no entry give nothing). A window
 * of a few hundred model calls asks this for hundreds of keys: through Dexie each lookup costs
 * about a quarter of a millisecond of script, so the lookups go to the transaction's own
 * IndexedDB index (`getKey`, the first primary key under a key), and one Dexie request after
 * them is awaited: requests of one transaction complete in the order they were made, so when it
 * has, every lookup has, and the code after the await still runs in Dexie's transaction scope.
 */
async function firstSeqs(db: ThreadlensDB, threadId: string, anySeq: number, lookups: readonly (readonly [string, readonly IDBValidKey[]])[]): Promise<number[]> {
  const seqs: number[] = []
  const transaction = db.dexieRuntime.currentIdbTransaction()
  // Always called inside the store's read transaction (`loadWindowEntries`' contract).
  if (transaction === undefined) throw new Error('[threadlens] the windowed load runs inside a read transaction')
  const store = transaction.objectStore(db.entries.name)
  for (const [index, keys] of lookups) {
    const source = store.index(index)
    for (const key of keys) {
      const request = source.getKey(key)
      request.onsuccess = () => {
        const first = request.result as [string, number] | undefined
        if (first !== undefined) seqs.push(first[1])
      }
    }
  }
  await db.entries.where('[threadId+seq]').equals([threadId, anySeq]).primaryKeys()
  return seqs
}
