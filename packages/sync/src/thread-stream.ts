import { InvalidEntryError, ThreadlensError } from '@threadlens/core'
import type { Entry } from '@threadlens/core'
import type { ThreadStore } from '@threadlens/store'
import { nextBatch } from './batches'
import { SyncError, SyncRejectedError } from './errors'
import { sendPush } from './send-push'
import type { StreamHttp } from './stream-http'
import type { ThreadSyncState } from './sync-state'
import { readEntriesMessage, isRefusal, wireEntry, wireVersion } from './wire'
import type { WireEntry } from './wire'

/** Reads of one catch-up, at most: a stream longer than this is read on in the next step. */
const maxPagesPerPull = 1_000

/** What one thread's pull or push needs from the engine. */
export interface ThreadStreamContext {
  readonly http: StreamHttp
  place: ThreadStore['placeSynced']
  entriesFrom: ThreadStore['entriesFrom']
  readonly deviceId: string
  urlOf(threadId: string): string
  save(state: ThreadSyncState): Promise<void>
  reject(error: SyncRejectedError): void
  /** A push was stored: the index should say so (written to the index's outbox). */
  announce(threadId: string): Promise<void>
  /** Before a push: the bytes of the attachments its entries use go to the blob endpoint. */
  upload(entries: readonly Entry[]): Promise<void>
  /** After a read: the bytes of the attachments placed entries use come from the blob endpoint; gives those it lacks yet. */
  download(threadId: string, entries: readonly WireEntry[]): Promise<readonly (readonly [string, string])[]>
  /** The stream is closed: the thread was deleted elsewhere. */
  closed(state: ThreadSyncState): Promise<ThreadSyncState>
}

function isEntryRefusal(error: unknown): boolean {
  return InvalidEntryError.isInstance(error) || (ThreadlensError.isInstance(error) && (error as Error).name === 'ImportValidationError')
}

/** Entry ids the store placed: those of `given` now stored at or after the kept prefix. */
function placedIds(given: readonly WireEntry[], after: readonly Entry[]): Set<string> {
  const stored = new Set<string>(after.map((entry) => entry.id))
  return new Set(given.filter((entry) => stored.has(entry.id)).map((entry) => entry.id))
}

/**
 * Places what a read brought: all of it at once when it is all valid; otherwise message by message,
 * refusing the messages the store refuses (each reported), so one bad message never stops the thread.
 */
async function place(
  context: ThreadStreamContext,
  state: ThreadSyncState,
  offset: string,
  messages: readonly (readonly WireEntry[])[],
): Promise<ThreadSyncState> {
  const all = messages.flat()
  if (all.length === 0) return state
  const apply = async (current: ThreadSyncState, entries: readonly WireEntry[]): Promise<ThreadSyncState> => {
    const placed = await context.place(current.threadId, current.synced, entries)
    const ids = placedIds(entries, placed.entries)
    return { ...current, synced: current.synced + ids.size, acked: current.acked.filter((id) => !ids.has(id)) }
  }
  try {
    return await apply(state, all)
  } catch (error) {
    if (!isEntryRefusal(error) || messages.length === 0) throw error
  }
  let current = state
  for (const entries of messages) {
    try {
      current = await apply(current, entries)
    } catch (error) {
      if (!isEntryRefusal(error)) throw error
      const reason = error instanceof Error ? error.message : String(error)
      context.reject(new SyncRejectedError(state.threadId, offset, reason, undefined, { cause: error }))
    }
  }
  return current
}

/**
 * The push in flight, found in the stream (its answer was lost after the server took it): stored,
 * so it is not sent again; the producer goes on from the next seq.
 */
function readBack(state: ThreadSyncState, batches: readonly (readonly WireEntry[])[]): ThreadSyncState {
  const push = state.inflight
  if (push === null || push.ids.length === 0) return state
  const read = new Set(batches.flatMap((entries) => entries.map((entry) => entry.id)))
  if (!push.ids.every((id) => read.has(id))) return state
  return { ...state, inflight: null, producer: { epoch: push.epoch, seq: push.seq + 1 } }
}

/** Reads the thread's stream from where it stopped to its end, placing what it finds. */
export async function pullThread(context: ThreadStreamContext, start: ThreadSyncState): Promise<ThreadSyncState> {
  let state = start
  const url = context.urlOf(state.threadId)
  for (let page = 0; page < maxPagesPerPull; page++) {
    const read = await context.http.read(url, state.offset, { live: false })
    if (read.kind === 'missing') return state
    const batches: (readonly WireEntry[])[] = []
    const seen = new Set<string>()
    let newer: unknown
    for (const value of read.messages) {
      const message = readEntriesMessage(value)
      if (isRefusal(message)) {
        // A newer format: what came before it is placed, and the thread stops there.
        if (message.kind === 'newer') {
          newer = message.version
          break
        }
        context.reject(new SyncRejectedError(state.threadId, state.offset, message.reason, message.entryId))
        continue
      }
      const fresh = message.entries.filter((entry) => !seen.has(entry.id))
      for (const entry of fresh) seen.add(entry.id)
      if (fresh.length > 0) batches.push(fresh)
    }
    state = await place(context, state, state.offset, batches)
    const missing = await context.download(state.threadId, batches.flat())
    if (missing.length > 0) state = { ...state, blobs: [...new Map([...(state.blobs ?? []), ...missing])] }
    if (newer !== undefined) {
      // The offset stays before this page: reading it again places nothing twice.
      await context.save(state)
      throw new SyncError(
        'schema-version',
        url,
        `The stream ${url} holds messages of sync format ${String(newer)}; this code reads format ${wireVersion}. Update the app to sync this thread.`,
      )
    }
    state = { ...state, offset: read.nextOffset }
    state = readBack(state, batches)
    await context.save(state)
    if (read.closed) return context.closed(state)
    if (read.upToDate || read.messages.length === 0) return state
  }
  return state
}

// Repeated on purpose: same read-then-push shape as packages/sync/src/memory-stream.ts (each stream reads and pushes
// its own kind of message and state).
/**
 * Sends the thread's push in flight, or makes the next one from its pending entries (written down
 * before it is sent). Returns the state after it, unchanged when nothing was pending.
 */
export async function pushThread(context: ThreadStreamContext, start: ThreadSyncState): Promise<ThreadSyncState> {
  let state = start
  let push = state.inflight
  if (push === null) {
    const acked = new Set(state.acked)
    const pending = (await context.entriesFrom(state.threadId, state.synced)).filter((entry) => !acked.has(entry.id))
    const batch = nextBatch(pending, (entry) => JSON.stringify(entry.payload).length)
    if (batch.length === 0) return state
    await context.upload(batch)
    const body = JSON.stringify([{ v: wireVersion, type: 'entries', device: context.deviceId, entries: batch.map(wireEntry) }])
    push = { epoch: state.producer.epoch, seq: state.producer.seq, body, ids: batch.map((entry) => entry.id) }
    state = { ...state, inflight: push }
    await context.save(state)
  }
  const sent = await sendPush(context.http, context.urlOf(state.threadId), context.deviceId, push, async (renewed) => {
    state = { ...state, inflight: renewed }
    await context.save(state)
  })
  push = sent.push
  const { outcome } = sent
  switch (outcome.kind) {
    case 'stored':
      // The notice first: a crash before the state is saved resends the push (dropped as a repeat) and notices twice.
      await context.announce(state.threadId)
      state = { ...state, inflight: null, producer: { epoch: push.epoch, seq: push.seq + 1 }, acked: [...state.acked, ...push.ids] }
      await context.save(state)
      return state
    case 'closed':
      return context.closed(state)
    default:
      throw new SyncError(
        'http',
        context.urlOf(state.threadId),
        `The sync server would not take thread ${state.threadId}'s entries (${outcome.kind}).`,
      )
  }
}
