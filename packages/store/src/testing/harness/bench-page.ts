// The browser half of `npm run bench` for the store (packages/store/bench/store.bench.ts drives it).
// Measures, prints nothing, returns figures: no assertion here fails on a slow number.
import {
  createTokenCounter,
  definePolicy,
  presets,
  project,
  type ContextPolicy,
  type Entry,
  type EntryInput,
  type TokenCounter,
} from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'
import { ThreadlensDB } from '../../backends/indexeddb/threadlens-db'
import { createThreadStore } from '../../backends/indexeddb/create-thread-store'

export interface Timing {
  readonly runs: number
  readonly p50: number
  readonly p95: number
  readonly min: number
}

export interface ThroughputFigures {
  readonly entries: number
  /** Rounds of each (the median is reported). */
  readonly rounds: number
  /** Raw IndexedDB: `put` of the same stored entries in one transaction, same key and indexes. */
  readonly rawPerSecond: number
  /** `appendMany`, no counter: validation, rule checks, seq assignment, one transaction. */
  readonly storePerSecond: number
  readonly ratio: number
  /** `appendMany` with the o200k counter: also counts every entry's tokens before the transaction. */
  readonly storeCountingPerSecond: number | undefined
}

export interface OpenFigures {
  readonly label: string
  readonly threadEntries: number
  readonly windowEntries: number
  /** Fresh connection, windowed load, first projection. */
  readonly timing: Timing
  readonly projectedMessages: number
  readonly projectedTokens: number
}

/** The thread's recall index on opening it: restored from the stored terms, or built from all its entries. */
export interface RecallOpenFigures {
  readonly threadEntries: number
  /** Fresh connection, `threads.recallIndex(id)` (the rows read and the postings made). */
  readonly restore: Timing
  /** The whole thread loaded (not timed), then `createRecallIndex().sync(entries)`: every entry tokenized. */
  readonly build: Timing
  /** `sync` after each of 300 appends (one entry tokenized and added), as a chat keeps the index up to date. */
  readonly perAppend: Timing
}

export interface StoreBenchResult {
  readonly userAgent: string
  /** Includes writing the entry's recall terms in the same transaction. */
  readonly appendLatency: Timing
  readonly throughput: readonly ThroughputFigures[]
  readonly open: readonly OpenFigures[]
  readonly fullLoad: { readonly threadEntries: number; readonly milliseconds: number }
  readonly recall: readonly RecallOpenFigures[]
}

function timing(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number
  return { runs: sorted.length, p50: at(0.5), p95: at(0.95), min: sorted[0] as number }
}

const sentences = [
  'Plan a weekend in Oslo with a museum, a fjord trip and somewhere warm to eat when it rains.',
  'The ferry leaves at 10:15 from pier 3; tickets are cheaper online, and the return is at 16:40.',
  'Here is the itinerary: Saturday morning the Munch museum, lunch at Mathallen, then the opera roof.',
]

/** About 300 bytes per entry: mostly messages, with tool call/result pairs; no summaries. */
function benchInputs(count: number, label: string): EntryInput[] {
  const inputs: EntryInput[] = []
  for (let position = 0; inputs.length < count; position++) {
    const text = `${label} ${position}: ${sentences[position % 3]} ${sentences[(position + 1) % 3]} ${sentences[(position + 2) % 3]}`
    if (position % 10 === 7 && inputs.length + 2 <= count) {
      const toolCallId = `${label}-t${position}`
      inputs.push({
        kind: 'tool_call',
        payload: { name: 'search', arguments: { query: text.slice(0, 120) } },
        refs: { callId: `${label}-c${position}`, toolCallId },
      })
      inputs.push({ kind: 'tool_result', payload: { name: 'search', result: { hits: [text.slice(0, 150)] } }, refs: { toolCallId } })
    } else {
      inputs.push({ kind: 'message', payload: { role: position % 2 === 0 ? 'user' : 'assistant', content: text } })
    }
  }
  return inputs
}

function requestPromise<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

/** The same entries through raw IndexedDB: one transaction of `put`s into a store shaped like ours. */
async function rawPut(entries: readonly Entry[], name: string): Promise<number> {
  const open = indexedDB.open(name, 1)
  open.onupgradeneeded = () => {
    const store = open.result.createObjectStore('entries', { keyPath: ['threadId', 'seq'] })
    store.createIndex('[threadId+kind+refs.toolCallId]', ['threadId', 'kind', 'refs.toolCallId'])
    store.createIndex('[threadId+refs.callId]', ['threadId', 'refs.callId'])
  }
  const database = await requestPromise(open)
  const started = performance.now()
  const transaction = database.transaction('entries', 'readwrite')
  const store = transaction.objectStore('entries')
  for (const entry of entries) store.put(entry)
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = () => reject(transaction.error)
    transaction.onabort = () => reject(transaction.error)
  })
  const elapsed = performance.now() - started
  database.close()
  await requestPromise(indexedDB.deleteDatabase(name))
  return elapsed
}

/** A thread's recall index restored from its stored terms (fresh connection each run) against one built from its loaded entries. */
async function recallOpen(name: string, threadId: string, entries: readonly Entry[], runs: number): Promise<Omit<RecallOpenFigures, 'perAppend'>> {
  const restore: number[] = []
  const build: number[] = []
  for (let run = 0; run < runs; run++) {
    const db = new ThreadlensDB({ name })
    const started = performance.now()
    const restored = await createThreadStore(db).recallIndex(threadId)
    restore.push(performance.now() - started)
    db.close()
    const buildStarted = performance.now()
    const built = createRecallIndex()
    built.sync(entries)
    build.push(performance.now() - buildStarted)
    if (built.size !== restored.size) throw new Error(`the restored index holds ${restored.size} entries, the built one ${built.size}`)
  }
  return { threadEntries: entries.length, restore: timing(restore), build: timing(build) }
}

async function deleteDatabase(name: string): Promise<void> {
  await requestPromise(indexedDB.deleteDatabase(name))
}

export async function runStoreBench(options: { sizes?: readonly number[]; openRuns?: number } = {}): Promise<StoreBenchResult> {
  const sizes = options.sizes ?? [10_000, 100_000]
  const openRuns = options.openRuns ?? 10
  const o200k: TokenCounter = await createTokenCounter('o200k_base')
  const name = `threadlens-bench-${Date.now()}`

  // 1. Append latency: one entry, one transaction. Measured as an app that recalls runs: its first
  // `recallIndex` loads the term rules, and every write after keeps its entries' terms.
  const latencyDb = new ThreadlensDB({ name: `${name}-latency` })
  const latencyStore = createThreadStore(latencyDb, { counters: [o200k] })
  const { id: latencyThread } = await latencyStore.create()
  await latencyStore.recallIndex(latencyThread)
  const samples: number[] = []
  const perAppend: number[] = []
  const latencyIndex = createRecallIndex()
  for (let run = 0; run < 320; run++) {
    const input: EntryInput = { kind: 'message', payload: { role: 'user', content: `${sentences[run % 3]} (${run})` } }
    const started = performance.now()
    const entry = await latencyStore.append(latencyThread, input)
    if (run >= 20) samples.push(performance.now() - started)
    const indexStarted = performance.now()
    latencyIndex.sync([entry])
    if (run >= 20) perAppend.push(performance.now() - indexStarted)
  }
  latencyDb.close()
  await deleteDatabase(`${name}-latency`)

  // 2. appendMany against raw IndexedDB on the same data. A warm-up round first (JIT, the readers), then
  // alternating rounds; the median of each is reported.
  const plainRound = async (inputs: readonly EntryInput[], label: string): Promise<{ ms: number; written: readonly Entry[] }> => {
    const plainName = `${name}-plain-${label}`
    const plainDb = new ThreadlensDB({ name: plainName })
    const plain = createThreadStore(plainDb)
    const { id } = await plain.create()
    const started = performance.now()
    const written = await plain.appendMany(id, inputs)
    const ms = performance.now() - started
    plainDb.close()
    await deleteDatabase(plainName)
    return { ms, written }
  }
  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
  {
    const { written } = await plainRound(benchInputs(2_000, 'warm'), 'warm')
    await rawPut(written, `${name}-raw-warm`)
  }
  const throughput: ThroughputFigures[] = []
  let projectionThread: { db: string; id: string; entries: number } | undefined
  for (const size of sizes) {
    const rounds = size <= 20_000 ? 3 : 1
    const inputs = benchInputs(size, `n${size}`)
    const storeTimes: number[] = []
    const rawTimes: number[] = []
    for (let round = 0; round < rounds; round++) {
      const { ms, written } = await plainRound(inputs, `${size}-${round}`)
      storeTimes.push(ms)
      rawTimes.push(await rawPut(written, `${name}-raw-${size}-${round}`))
    }

    // With the exact counter: this thread is then opened and projected below.
    const countingName = `${name}-counted-${size}`
    const countingDb = new ThreadlensDB({ name: countingName })
    const counting = createThreadStore(countingDb, { counters: [o200k] })
    const { id: countedId } = await counting.create({ title: `${size} entries` })
    const started = performance.now()
    await counting.appendMany(countedId, benchInputs(size, `c${size}`))
    const countingMs = performance.now() - started
    countingDb.close()
    if (projectionThread === undefined || size > projectionThread.entries) {
      if (projectionThread !== undefined) await deleteDatabase(projectionThread.db)
      projectionThread = { db: countingName, id: countedId, entries: size }
    } else await deleteDatabase(countingName)

    const rawPerSecond = (size / median(rawTimes)) * 1000
    const storePerSecond = (size / median(storeTimes)) * 1000
    throughput.push({
      entries: size,
      rounds,
      rawPerSecond,
      storePerSecond,
      ratio: storePerSecond / rawPerSecond,
      storeCountingPerSecond: (size / countingMs) * 1000,
    })
  }

  // 3. Open the biggest thread and make its first projection under an 8k budget.
  const open: OpenFigures[] = []
  const recall: RecallOpenFigures[] = []
  let fullLoad = { threadEntries: 0, milliseconds: 0 }
  if (projectionThread !== undefined) {
    const target = projectionThread
    // No summary in the thread: the window is bounded by the budget alone (the harder case). A
    // cache-friendly policy reads one chunk more than the budget.
    const policies: [string, ContextPolicy, number][] = [
      ['8k budget (definePolicy)', definePolicy({ maxInputTokens: 8_192, reserveOutputTokens: 1_024 }), openRuns],
      ['8k, cache-friendly preset (presets.shortContext)', presets.shortContext(), openRuns],
    ]
    for (const [label, policy, runs] of policies) {
      const times: number[] = []
      let last: { windowEntries: number; messages: number; tokens: number } = { windowEntries: 0, messages: 0, tokens: 0 }
      for (let run = 0; run < runs; run++) {
        const started = performance.now()
        const db = new ThreadlensDB({ name: target.db })
        const store = createThreadStore(db, { counters: [o200k] })
        const thread = await store.load(target.id, { window: { policy, counter: o200k } })
        const result = project({ thread, policy, counter: o200k, pending: [{ role: 'user', content: 'What next?' }] })
        times.push(performance.now() - started)
        last = { windowEntries: thread.entries.length, messages: result.messages.length, tokens: result.meta.tokens.total }
        db.close()
      }
      open.push({
        label,
        threadEntries: target.entries,
        windowEntries: last.windowEntries,
        timing: timing(times),
        projectedMessages: last.messages,
        projectedTokens: last.tokens,
      })
    }
    const db = new ThreadlensDB({ name: target.db })
    const started = performance.now()
    const whole = await createThreadStore(db).load(target.id)
    fullLoad = { threadEntries: whole.entries.length, milliseconds: performance.now() - started }
    db.close()
    recall.push({ ...(await recallOpen(target.db, target.id, whole.entries, Math.max(3, Math.floor(openRuns / 3)))), perAppend: timing(perAppend) })
    await deleteDatabase(target.db)
  }

  return { userAgent: navigator.userAgent, appendLatency: timing(samples), throughput, open, fullLoad, recall }
}
