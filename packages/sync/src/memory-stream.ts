// long: a memory's pull (the merge), its push and the messages' checks, over one state shape
import { RevisionConflictError, ThreadlensError } from '@threadlens/core'
import type { JsonObject, JsonValue, Memory } from '@threadlens/core'
import type { MemoryStore } from '@threadlens/store'
import { SyncError, SyncRejectedError } from './errors'
import { sendPush } from './send-push'
import type { StreamHttp } from './stream-http'
import type { InflightPush, ProducerState } from './sync-state'
import { envelope, isObject, isRefusal, wireVersion } from './wire'
import type { Refusal } from './wire'

/**
 * Memory syncs as an operation log: each message sets one space to new data *if* the space is
 * still at the agreed revision the write started from (`baseRev`). Every device reads the same log
 * in the same order and applies the same rule, so they agree on every space; a write whose base
 * was overtaken (another device wrote the space first) is refused everywhere, and the device that
 * made it is told with a `MemorySyncConflictError`.
 */
export interface SpaceOperation {
  readonly opId: string
  readonly space: string
  readonly kind: 'map' | 'list'
  readonly baseRev: number
  /** The space's data after the write; `null` deletes a custom space. */
  readonly data: JsonObject | readonly JsonValue[] | null
  readonly metadata: JsonObject
}

export interface MemoryMessage {
  readonly v: 1
  readonly type: 'memory'
  readonly device: string
  readonly operations: readonly SpaceOperation[]
}

/** A space as the log agreed it. */
export interface AgreedSpace {
  /** How many operations the log accepted for this space. */
  readonly rev: number
  readonly kind: 'map' | 'list'
  readonly data: JsonObject | readonly JsonValue[] | null
  readonly metadata: JsonObject
  /** The local space rev once the agreed data was there: a higher local rev is a change to push. */
  readonly localRev: number
}

export interface MemorySyncState {
  readonly memoryId: string
  readonly offset: string
  readonly producer: ProducerState
  readonly inflight: InflightPush | null
  /** Operations of this device sent and not yet read back. */
  readonly unread: readonly { readonly opId: string; readonly space: string }[]
  readonly spaces: Readonly<Record<string, AgreedSpace>>
}

export function newMemoryState(memoryId: string): MemorySyncState {
  return { memoryId, offset: '-1', producer: { epoch: 0, seq: 0 }, inflight: null, unread: [], spaces: {} }
}

/**
 * A write to a memory space on this device lost to a write on another device: the log took the
 * other one first. This device's space now holds the agreed data (`current`); `lost` is what this
 * device had written, to merge and write again.
 */
export class MemorySyncConflictError extends RevisionConflictError {
  static override readonly errorName: string = 'MemorySyncConflictError'
  /** The data this device wrote, which was not kept. */
  declare readonly lost: unknown
  constructor(memoryId: string, space: string, baseRev: number, agreed: AgreedSpace, lost: unknown) {
    super({ kind: 'memory-space', memoryId, space }, baseRev, agreed.rev, agreed.data)
    this.lost = lost
    this.message = `Memory "${memoryId}" space "${space}" was written on another device first (synced revision ${agreed.rev}, this device's write started from ${baseRev}): this device now holds the other write; error.lost is the write that was not kept.`
  }
}

export interface MemoryStreamContext {
  readonly http: StreamHttp
  readonly memory: MemoryStore
  readonly deviceId: string
  readonly createId: () => string
  urlOf(memoryId: string): string
  save(state: MemorySyncState): Promise<void>
  reject(error: SyncRejectedError): void
  conflict(error: MemorySyncConflictError): void
}

function readMemoryMessage(value: unknown): MemoryMessage | Refusal {
  const checked = envelope(value)
  if (isRefusal(checked)) return checked
  if (checked.type !== 'memory' || !Array.isArray(checked.operations)) return { kind: 'refused', reason: 'not a memory message' }
  for (const operation of checked.operations as unknown[]) {
    if (
      !isObject(operation) ||
      typeof operation.opId !== 'string' ||
      typeof operation.space !== 'string' ||
      (operation.kind !== 'map' && operation.kind !== 'list') ||
      !Number.isSafeInteger(operation.baseRev) ||
      !isObject(operation.metadata) ||
      !(operation.data === null || (operation.kind === 'map' ? isObject(operation.data) : Array.isArray(operation.data)))
    ) {
      return { kind: 'refused', reason: 'an operation is not valid' }
    }
  }
  return checked as unknown as MemoryMessage
}

/** Puts the agreed data of `space` into the local memory; returns the local rev it then has. */
async function writeLocal(context: MemoryStreamContext, memoryId: string, name: string, agreed: Omit<AgreedSpace, 'localRev'>): Promise<number> {
  const memory = await context.memory.get(memoryId)
  const local = memory.spaces[name]
  let after: Memory = memory
  if (agreed.data === null) {
    if (local !== undefined) after = await context.memory.deleteSpace(memoryId, name)
    return after.rev
  }
  if (local === undefined) after = await context.memory.createSpace(memoryId, name, agreed.kind, { metadata: agreed.metadata })
  const data = agreed.data
  after = await context.memory.update(memoryId, name, () => data as never)
  return after.spaces[name]?.rev ?? after.rev
}

/** Reads the memory's log from where it stopped and applies each operation by the rule above. */
// long: the merge: one pass over the operations, in log order, with its three outcomes
export async function pullMemory(context: MemoryStreamContext, start: MemorySyncState): Promise<MemorySyncState> {
  let state = start
  const url = context.urlOf(state.memoryId)
  for (let page = 0; page < 1_000; page++) {
    const read = await context.http.read(url, state.offset, { live: false })
    if (read.kind === 'missing') return state
    for (const value of read.messages) {
      const message = readMemoryMessage(value)
      if (isRefusal(message)) {
        if (message.kind === 'newer')
          throw new SyncError(
            'schema-version',
            url,
            `The memory stream ${url} holds messages of sync format ${String(message.version)}; this code reads format ${wireVersion}.`,
          )
        context.reject(new SyncRejectedError(`memory:${state.memoryId}`, state.offset, message.reason))
        continue
      }
      const mine = message.device === context.deviceId
      for (const operation of message.operations) {
        const agreed = state.spaces[operation.space]
        const rev = agreed?.rev ?? 0
        const ours = mine && state.unread.some((sent) => sent.opId === operation.opId)
        state = { ...state, unread: state.unread.filter((sent) => sent.opId !== operation.opId) }
        if (operation.baseRev !== rev) {
          // Overtaken: refused on every device. Its author hears it, unless it heard it already.
          if (ours && agreed !== undefined)
            context.conflict(new MemorySyncConflictError(state.memoryId, operation.space, operation.baseRev, agreed, operation.data))
          continue
        }
        const next = { rev: rev + 1, kind: operation.kind, data: operation.data, metadata: operation.metadata }
        const local = (await context.memory.get(state.memoryId)).spaces[operation.space]
        const sameAsLocal = local !== undefined && JSON.stringify(local.data) === JSON.stringify(operation.data)
        if (ours) {
          // Ours, accepted: the local space holds it, or a later local write still to push.
          const localRev = sameAsLocal ? local.rev : (agreed?.localRev ?? 0)
          state = { ...state, spaces: { ...state.spaces, [operation.space]: { ...next, localRev } } }
          continue
        }
        const changedHere = local !== undefined && local.rev > (agreed?.localRev ?? 0) && !sameAsLocal
        if (changedHere) {
          // This device's write to the space (sent or not) lost to this one: told now, once.
          context.conflict(new MemorySyncConflictError(state.memoryId, operation.space, rev, { ...next, localRev: 0 }, local.data))
          state = { ...state, unread: state.unread.filter((sent) => sent.space !== operation.space) }
        }
        let localRev: number
        try {
          localRev = await writeLocal(context, state.memoryId, operation.space, next)
        } catch (error) {
          if (!ThreadlensError.isInstance(error)) throw error
          // The memory store refused the data (a wrong shape for the space): refused here, as on every device.
          context.reject(new SyncRejectedError(`memory:${state.memoryId}`, state.offset, error.message))
          continue
        }
        state = { ...state, spaces: { ...state.spaces, [operation.space]: { ...next, localRev } } }
      }
    }
    state = { ...state, offset: read.nextOffset }
    // The push in flight was read back (its answer was lost): it is stored, no need to send it again.
    if (state.inflight !== null && !state.unread.some((sent) => state.inflight!.ids.includes(sent.opId))) {
      state = { ...state, inflight: null, producer: { epoch: state.inflight.epoch, seq: state.inflight.seq + 1 } }
    }
    await context.save(state)
    if (read.upToDate || read.messages.length === 0) return state
  }
  return state
}

// Repeated on purpose: same read-then-push shape as packages/sync/src/thread-stream.ts (each stream reads and pushes
// its own kind of message and state).
/** Pushes one operation per space changed here since it was agreed (not while one of ours for it is unread). */
export async function pushMemory(context: MemoryStreamContext, start: MemorySyncState): Promise<MemorySyncState> {
  let state = start
  let push = state.inflight
  if (push === null) {
    const memory = await context.memory.get(state.memoryId)
    const operations: SpaceOperation[] = []
    const names = new Set([...Object.keys(memory.spaces), ...Object.keys(state.spaces)])
    for (const name of names) {
      const local = memory.spaces[name]
      const agreed = state.spaces[name]
      if (local === undefined ? agreed === undefined || agreed.data === null : local.rev <= (agreed?.localRev ?? 0)) continue
      if (local !== undefined && agreed !== undefined && JSON.stringify(local.data) === JSON.stringify(agreed.data)) continue
      const base = { opId: context.createId(), space: name, baseRev: agreed?.rev ?? 0 }
      operations.push(
        local === undefined
          ? { ...base, kind: agreed!.kind, data: null, metadata: agreed!.metadata }
          : { ...base, kind: local.kind, data: local.data, metadata: local.metadata },
      )
    }
    if (operations.length === 0 || state.unread.length > 0) return state
    const message: MemoryMessage = { v: wireVersion, type: 'memory', device: context.deviceId, operations }
    push = {
      epoch: state.producer.epoch,
      seq: state.producer.seq,
      body: JSON.stringify([message]),
      ids: operations.map((operation) => operation.opId),
    }
    // Unread from the moment it is written down: its answer may be lost after the server took it.
    state = {
      ...state,
      inflight: push,
      unread: [...state.unread, ...operations.map((operation) => ({ opId: operation.opId, space: operation.space }))],
    }
    await context.save(state)
  }
  const url = context.urlOf(state.memoryId)
  const sent = await sendPush(context.http, url, context.deviceId, push, async (renewed) => {
    state = { ...state, inflight: renewed }
    await context.save(state)
  })
  push = sent.push
  const { outcome } = sent
  if (outcome.kind !== 'stored')
    throw new SyncError('http', url, `The sync server would not take memory ${state.memoryId}'s operations (${outcome.kind}).`)
  state = { ...state, inflight: null, producer: { epoch: push.epoch, seq: push.seq + 1 } }
  await context.save(state)
  return state
}
