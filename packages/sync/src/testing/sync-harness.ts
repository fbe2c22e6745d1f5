import { DurableStreamTestServer } from '@durable-streams/server'
import { createMemoryBackedStores } from '@threadlens/store'
import type { EntryInput } from '@threadlens/core'
import type { MemoryStore, ThreadStore } from '@threadlens/store'
import type { AttachmentStore } from '@threadlens/store/attachments'
import type { BlobEndpoint } from '../attachments'
import { createSync } from '../create-sync'
import type { SyncOptions, ThreadSync } from '../create-sync'
import { inMemorySyncState } from '../sync-state'
import type { SyncStateStore } from '../sync-state'

/** The reference server in this process, in memory, on a free loopback port. */
export async function startMemoryServer(): Promise<{ readonly url: string; stop(): Promise<void> }> {
  const server = new DurableStreamTestServer({ port: 0, host: '127.0.0.1', longPollTimeout: 300 })
  const base = await server.start()
  return { url: base, stop: () => server.stop() }
}

/**
 * What the next requests of a device meet: `down` fails them before they reach the server (a cut
 * network), `lost` lets the server act and then loses the answer (a crash or a cut mid-request).
 */
export interface Faults {
  down: number
  lost: number
}

export function faultyFetch(faults: Faults): typeof fetch {
  return async (input, init) => {
    if (faults.down > 0) {
      faults.down--
      throw new TypeError('network down (test)')
    }
    const response = await fetch(input, init)
    if (faults.lost > 0 && init?.method === 'POST') {
      faults.lost--
      await response.arrayBuffer()
      throw new TypeError('answer lost (test)')
    }
    return response
  }
}

/** A device: its own store and sync state, an engine that can crash and start again. */
export interface Device {
  readonly name: string
  readonly threads: ThreadStore
  readonly attachments: AttachmentStore
  /** Its memory store; memory `agent` syncs. */
  readonly memory: MemoryStore
  readonly state: SyncStateStore
  readonly faults: Faults
  sync: ThreadSync
  /** Drops the engine without letting it finish (its store and saved state stay), then starts another. */
  crash(): Promise<void>
}

export function createDevice(name: string, url: string, options: Partial<SyncOptions> & { readonly blobs?: BlobEndpoint } = {}): Device {
  let counter = 0
  const stores = createMemoryBackedStores({ createId: () => `${name}-${counter++}` })
  const state = inMemorySyncState()
  const faults: Faults = { down: 0, lost: 0 }
  const { blobs, ...syncOptions } = options
  const attachments = blobs === undefined ? {} : { attachments: { store: stores.attachments, blobs } }
  const start = (): ThreadSync =>
    createSync({
      threads: stores.threads,
      memory: { store: stores.memory, ids: ['agent'] },
      url,
      state,
      live: false,
      fetch: faultyFetch(faults),
      random: () => 0,
      onRejected: () => {},
      createId: () => `${name}-device`,
      ...attachments,
      ...syncOptions,
    })
  const device: Device = {
    name,
    threads: stores.threads,
    memory: stores.memory,
    attachments: stores.attachments,
    state,
    faults,
    sync: start(),
    async crash() {
      void device.sync.stop()
      device.sync = start()
    },
  }
  return device
}

export function userMessage(text: string): EntryInput {
  return { kind: 'message', payload: { role: 'user', content: text } }
}

/** A thread of `count` user messages of ~100 B written on `device`, in batches of 500: the benches' long thread. */
export async function writeLongThread(device: Device, count: number): Promise<string> {
  const thread = await device.threads.create({ title: 'long' })
  for (let start = 0; start < count; start += 500) {
    const batch = Math.min(500, count - start)
    await device.threads.appendMany(
      thread.id,
      Array.from({ length: batch }, (_, index) => userMessage(`message ${start + index}: ${'lorem ipsum '.repeat(8)}`)),
    )
  }
  return thread.id
}

export function toolPair(callId: string, text: string): EntryInput[] {
  return [
    { kind: 'tool_call', payload: { name: 'lookup', arguments: { q: text } }, refs: { toolCallId: callId } },
    { kind: 'tool_result', payload: { name: 'lookup', result: `found ${text}` }, refs: { toolCallId: callId } },
  ]
}
