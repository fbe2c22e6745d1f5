// A page for multi-tab Playwright tests and the store bench. Every function returns plain JSON
// (errors become { name, message, code, reason }), so Playwright can call it with page.evaluate.
import type { EntryInput } from '@threadlens/core'
import { Dexie } from 'dexie'
import { schemaV4 } from '../../backends/indexeddb/schema'
import { ThreadlensDB } from '../../backends/indexeddb/threadlens-db'
import { createMemoryStore } from '../../backends/indexeddb/create-memory-store'
import { createThreadStore } from '../../backends/indexeddb/create-thread-store'
import type { ThreadStore, ThreadStoreEvent } from '../../threads/thread-store'
import { runStoreBench } from './bench-page'
import { abortedAppend } from '../aborted-append'

export interface HarnessError {
  readonly name: string
  readonly message: string
  readonly code?: string
  readonly reason?: string
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HarnessError }

async function outcome<T>(body: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await body() }
  } catch (error) {
    const { name, message, code, reason } = error as HarnessError
    return { ok: false, error: { name, message, ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) } }
  }
}

let db: ThreadlensDB | undefined
let threads: ThreadStore | undefined
const events: ThreadStoreEvent[] = []

function store(): ThreadStore {
  if (threads === undefined) throw new Error('call storeHarness.open(name) first')
  return threads
}

function randomText(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length * 3) / 4)))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).slice(0, length)
}

const message = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'user', content } })

const harness = {
  /** Set while a background appendMany is inside its transaction. */
  phase: 'idle' as 'idle' | 'writing' | 'done' | 'failed',
  /** What the last background appendMany failed with. */
  backgroundError: undefined as HarnessError | undefined,

  async open(name: string): Promise<string> {
    db = new ThreadlensDB({ name })
    threads = createThreadStore(db)
    await db.open()
    return db.status.state
  },
  status: () => db?.status,
  create: (title: string) => outcome(async () => (await store().create({ title })).id),
  get: (threadId: string) => outcome(() => store().get(threadId)),
  list: () => outcome(async () => (await store().list()).map((record) => record.id)),
  seqs: (threadId: string) => outcome(async () => (await store().load(threadId)).entries.map((entry) => entry.seq)),
  contents: (threadId: string) =>
    outcome(async () => (await store().load(threadId)).entries.map((entry) => (entry.kind === 'message' ? entry.payload.content : entry.kind))),
  /** `count` appends, one transaction each. */
  appendSequential: (threadId: string, count: number, label: string) =>
    outcome(async () => {
      const seqs: number[] = []
      for (let position = 0; position < count; position++) seqs.push((await store().append(threadId, message(`${label} ${position}`))).seq)
      return seqs
    }),
  /** One appendMany of `count` entries of about `bytes` each. */
  appendMany: (threadId: string, count: number, bytes: number, label: string) =>
    outcome(async () => {
      // Random text: Chromium compresses what it stores, and repeated characters would take no room.
      const inputs = Array.from({ length: count }, (_, position) => message(`${label} ${position} ${randomText(Math.max(0, bytes - 40))}`))
      return (await store().appendMany(threadId, inputs)).length
    }),
  /** Starts an appendMany without waiting; `phase` says when it is in flight. */
  appendManyInBackground(threadId: string, count: number, label: string): void {
    const inputs = Array.from({ length: count }, (_, position) => message(`${label} ${position} ${'y'.repeat(200)}`))
    // appendMany validates synchronously, then opens its transaction before returning the promise:
    // once `phase` says 'writing', the transaction is in flight.
    const pending = outcome(() => store().appendMany(threadId, inputs))
    harness.phase = 'writing'
    void pending.then((result) => {
      harness.backgroundError = result.ok ? undefined : result.error
      harness.phase = result.ok ? 'done' : 'failed'
    })
  },
  subscribe(threadId: string): void {
    store().subscribe(threadId, (event) => events.push(event), { afterSeq: -1 })
  },
  /** What the subscription heard: appended contents in order, and failures by name. */
  heard: () =>
    events.map((event) =>
      event.type === 'entry-append'
        ? {
            type: event.type,
            seqs: event.entries.map((entry) => entry.seq),
            contents: event.entries.map((entry) => (entry.kind === 'message' ? entry.payload.content : entry.kind)),
          }
        : event.type === 'storage-fail'
          ? { type: event.type, error: (event.error as Error).name }
          : { type: event.type },
    ),
  /** A transaction that writes an entry and the thread row, then aborts. */
  abortedAppend: (threadId: string) => outcome(async () => abortedAppend(db as ThreadlensDB, threadId)),
  /** What a newer deploy does: opens the database with a higher schema version. */
  upgrade: (name: string, version: number) =>
    outcome(async () => {
      const newer = new Dexie(name)
      newer.version(version).stores({ ...schemaV4, threads: 'id, updatedAt, title' })
      await newer.open()
      return newer.verno
    }),
  eraseAll: () => outcome(async () => store().eraseAll()),
  memoryPut: (key: string, value: string) => outcome(async () => (await createMemoryStore(db as ThreadlensDB).world.put('agent', key, value)).rev),
  usage: async () => {
    const estimate = await navigator.storage.estimate()
    return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0 }
  },
  bench: runStoreBench,
}

declare global {
  interface Window {
    storeHarness: typeof harness
  }
}

window.storeHarness = harness
export type StoreHarness = typeof harness
