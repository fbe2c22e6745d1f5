// One device for the multi-device Playwright spec and the catch-up bench: the app's own stores
// (`openThreadlensStores`, IndexedDB) synced by `createSync` with its state in IndexedDB too. A
// browser context is a device: its storage is its own. Every function returns plain JSON.
import type { EntryInput } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import type { ThreadlensStores } from '@threadlens/store'
import { createSync } from '../../create-sync'
import type { ThreadSync } from '../../create-sync'
import { indexedDbSyncState } from '../../indexeddb-sync-state'

export interface HarnessStatus {
  readonly state: string
  readonly pending: number
  readonly error: string | null
  readonly rejected: number
}

/** An entry as stored, reduced to what two devices must agree on. */
export interface StoredEntry {
  readonly id: string
  readonly seq: number
  readonly kind: string
  readonly toolCallId: string | null
  /** The payload, as JSON text. */
  readonly payload: string
}

export interface StoredThread {
  readonly id: string
  readonly title: string
  readonly entries: readonly StoredEntry[]
}

let stores: ThreadlensStores | undefined
let sync: ThreadSync | undefined
let syncStateName = ''
/** Every state the status went through since `start`, in order (repeats collapsed). */
const states: string[] = []

function opened(): { stores: ThreadlensStores; sync: ThreadSync } {
  if (stores === undefined || sync === undefined) throw new Error('call syncHarness.start(options) first')
  return { stores, sync }
}

const message = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'user', content } })

const toolPair = (callId: string, text: string): EntryInput[] => [
  { kind: 'tool_call', payload: { name: 'lookup', arguments: { q: text } }, refs: { toolCallId: callId } },
  { kind: 'tool_result', payload: { name: 'lookup', result: `found ${text}` }, refs: { toolCallId: callId } },
]

/** Told of each POST the server answered with a 2xx, with its body: the push bench waits on it. */
const acknowledged = new Set<(body: string) => void>()
const watchedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  if (init?.method === 'POST' && response.ok && typeof init.body === 'string') for (const listener of [...acknowledged]) listener(init.body)
  return response
}

const harness = {
  /** Opens this device's stores (database `name`) and starts sync against `url`. */
  async start(options: { readonly name: string; readonly url: string }): Promise<void> {
    stores = await openThreadlensStores({ name: options.name })
    if (!stores.persistent) throw new Error(`IndexedDB is unavailable here: ${stores.unavailable.message}`)
    syncStateName = `${options.name}-sync`
    sync = createSync({
      threads: stores.threads,
      url: options.url,
      state: indexedDbSyncState({ name: syncStateName }),
      lockName: `${options.name}-sync`,
      onRejected: () => {},
      fetch: watchedFetch,
    })
    states.length = 0
    const record = () => {
      const { state } = sync!.status.getSnapshot()
      if (states.at(-1) !== state) states.push(state)
    }
    record()
    sync.status.subscribe(record)
  },
  async createThread(title: string): Promise<string> {
    return (await opened().stores.threads.create({ title })).id
  },
  /** Thread ids with their titles, as this device's store lists them. */
  async threads(): Promise<{ id: string; title: string }[]> {
    return (await opened().stores.threads.list()).map((record) => ({ id: record.id, title: record.title }))
  },
  /** Appends one message, or a tool call and its result in one `appendMany`; returns the new entries' ids. */
  async append(threadId: string, label: string, withTool: boolean): Promise<string[]> {
    const inputs = withTool ? toolPair(`${label}-call`, label) : [message(label)]
    return (await opened().stores.threads.appendMany(threadId, inputs)).map((entry) => entry.id)
  },
  status(): HarnessStatus {
    const { state, pending, error, rejected } = opened().sync.status.getSnapshot()
    return { state, pending, error: error === null ? null : `${error.code}: ${error.message}`, rejected: rejected.length }
  },
  states: (): string[] => [...states],
  /** Threads whose push is written down in the outbox and not yet acknowledged (read from IndexedDB). */
  async inflight(): Promise<string[]> {
    const saved = await indexedDbSyncState({ name: syncStateName }).loadThreads()
    return saved.filter((state) => state.inflight !== null).map((state) => state.threadId)
  },
  /** Every thread as stored in IndexedDB, through a connection of its own (not the running store's caches). */
  async read(name: string): Promise<StoredThread[]> {
    const fresh = await openThreadlensStores({ name })
    if (!fresh.persistent) throw new Error(`IndexedDB is unavailable here: ${fresh.unavailable.message}`)
    const records = (await fresh.threads.list()).sort((a, b) => a.id.localeCompare(b.id))
    const threads: StoredThread[] = []
    for (const record of records) {
      const { entries } = await fresh.threads.load(record.id)
      threads.push({
        id: record.id,
        title: record.title,
        entries: entries.map((entry) => ({
          id: entry.id,
          seq: entry.seq,
          kind: entry.kind,
          toolCallId: entry.refs?.toolCallId ?? null,
          payload: JSON.stringify(entry.payload),
        })),
      })
    }
    fresh.db.close()
    return threads
  },
  syncNow: () => opened().sync.syncNow(),
  /** The catch-up bench: from start to every stream read, until `threadId` holds `count` entries. */
  async catchUp(options: {
    readonly name: string
    readonly url: string
    readonly threadId: string
  }): Promise<{ milliseconds: number; entries: number }> {
    const began = performance.now()
    await harness.start(options)
    await opened().sync.syncNow()
    const milliseconds = performance.now() - began
    const { entries } = await opened().stores.threads.load(options.threadId)
    return { milliseconds, entries: entries.length }
  },
  /** The push bench: `count` times, one message appended, then until `syncNow()` has it acknowledged and read back (ms each). */
  async pushEach(threadId: string, count: number): Promise<number[]> {
    const times: number[] = []
    for (let index = 0; index < count; index++) {
      await opened().stores.threads.append(threadId, message(`steady ${index}`))
      const began = performance.now()
      await opened().sync.syncNow()
      times.push(performance.now() - began)
    }
    return times
  },
  /** The push bench, live: `count` times, one message appended, then until the server acknowledged the push carrying it (ms each). */
  async ackEach(threadId: string, count: number): Promise<number[]> {
    const times: number[] = []
    for (let index = 0; index < count; index++) {
      const began = performance.now()
      let resolveAck: () => void = () => {}
      const acked = new Promise<void>((resolve) => (resolveAck = resolve))
      let id = ''
      const listener = (body: string) => {
        if (id !== '' && body.includes(id)) resolveAck()
      }
      acknowledged.add(listener)
      id = (await opened().stores.threads.append(threadId, message(`live ${index}`))).id
      await Promise.race([
        acked,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`no acknowledged push of ${id} within 10 s`)), 10_000)),
      ])
      times.push(performance.now() - began)
      acknowledged.delete(listener)
      // Let the step finish (read back, index notice) before the next append, as between two messages a user sends.
      await opened().sync.syncNow()
    }
    return times
  },
  stop: () => sync?.stop(),
}

export type SyncHarness = typeof harness
;(window as unknown as { syncHarness: SyncHarness }).syncHarness = harness
