// long: the engine is one scheduler over the index and the thread streams; its steps are below it (thread-stream.ts, wire.ts)
import { webLocks } from '@threadlens/core/internal'
import type { MemoryStore, ThreadRecord, ThreadStore } from '@threadlens/store'
import { attachmentsIn, downloadAttachments, uploadAttachments } from './attachments'
import type { AttachmentSync } from './attachments'
import { newMemoryState, pullMemory, pushMemory } from './memory-stream'
import type { MemoryStreamContext, MemorySyncConflictError, MemorySyncState } from './memory-stream'
import { SyncError, SyncRejectedError } from './errors'
import { createStreamHttp } from './stream-http'
import type { StreamHttp, SyncHeaders } from './stream-http'
import { indexedDbSyncState } from './indexeddb-sync-state'
import { inMemorySyncState, newThreadState } from './sync-state'
import type { DeviceSyncState, SyncStateStore, ThreadSyncState } from './sync-state'
import { createStatusSource } from './sync-status'
import type { SyncStatus, SyncStatusSource } from './sync-status'
import { sendPush } from './send-push'
import { pullThread, pushThread } from './thread-stream'
import type { ThreadStreamContext } from './thread-stream'
import { isRefusal, readIndexMessage, sameRecord, wireRecord, wireVersion } from './wire'
import type { IndexMessage, WireEntry, WireRecord } from './wire'

export interface SyncOptions {
  /** The store whose threads sync. */
  readonly threads: ThreadStore
  /**
   * Where this user's streams live: the store's index is `<url>/index`, each thread
   * `<url>/threads/<id>`. Put the user in the path (e.g. `https://streams.example.com/v1/stream/users/u_42`)
   * and have the server check it against the credentials from `headers`.
   */
  readonly url: string
  /** Called before every request, e.g. `async () => ({ Authorization: \`Bearer ${await token()}\` })`. Never stored. */
  readonly headers?: SyncHeaders
  /**
   * Memories that sync (each at `<url>/memory/<id>`), as an operation log: a write that loses to
   * another device's write of the same space is undone here and reported (`onConflict`,
   * `status.conflicts`). Default: none.
   */
  readonly memory?: { readonly store: MemoryStore; readonly ids: readonly string[] }
  /**
   * Attachment bytes (images, files) sync through `blobs`, an endpoint the app provides (see
   * `BlobEndpoint`, `httpBlobEndpoint`), keyed by content hash and checked against it; never inside
   * a stream. Default: entries sync with their references only.
   */
  readonly attachments?: AttachmentSync
  /** Told when a memory write of this device lost to another device's. Default: nothing (see `status.conflicts`). */
  readonly onConflict?: (error: MemorySyncConflictError) => void
  /** Which local threads sync. Default: all. Threads that come from the server always do. */
  readonly include?: (record: ThreadRecord) => boolean
  /**
   * Where sync keeps its outbox and offsets. Default: beside a persistent store,
   * `indexedDbSyncState({ name: lockName })` (it survives reloads, as the store does); beside the
   * in-memory fallback, in memory (nothing survives a reload there). One per user: pass your own.
   */
  readonly state?: SyncStateStore
  /** Follow other devices live (long-poll on the index). Default: true. */
  readonly live?: boolean
  /** Told about each stream message this device refused. Default: a `console.warn`. */
  readonly onRejected?: (error: SyncRejectedError) => void
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch
  /** Default: `crypto.randomUUID`. */
  readonly createId?: () => string
  /**
   * The Web Lock that makes one tab of the app the one that syncs this store (the others wait as
   * `standby` and take over when it closes). Default: `threadlens-sync`; use one per synced store.
   */
  readonly lockName?: string
  /** Jitter of retry delays. Default: `Math.random`. */
  readonly random?: () => number
}

export interface ThreadSync {
  readonly status: SyncStatusSource
  /** Pushes what is pending and reads every stream to its end; rejects with the first failure. */
  syncNow(): Promise<void>
  /** Stops pushing and following; what is pending stays in the outbox for the next start. */
  stop(): Promise<void>
}

/** Retry delays: 0.5 s doubling to 30 s, each between half and all of that (jitter). */
const firstRetryMs = 500
const maxRetryMs = 30_000
/** Index messages per push, at most. */
const maxIndexBatch = 200

function retryDelay(failures: number, random: () => number): number {
  const ceiling = Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(failures, 16))
  return ceiling * (0.5 + random() / 2)
}

class SyncEngine implements ThreadSync {
  readonly status = createStatusSource()
  readonly #options: SyncOptions
  readonly #http: StreamHttp
  readonly #stateStore: SyncStateStore
  readonly #base: string
  #device!: DeviceSyncState
  readonly #threads = new Map<string, ThreadSyncState>()
  readonly #memories = new Map<string, MemorySyncState>()
  /** Attachments uploaded by this engine (an upload is idempotent; this only saves repeats). */
  readonly #uploaded = new Set<string>()
  readonly #records = new Map<string, ThreadRecord>()
  readonly #queue = new Set<string>()
  #draining: Promise<void> | null = null
  #failures = 0
  #retryTimer: ReturnType<typeof setTimeout> | undefined
  #stopped = false
  #lastError: unknown = null
  readonly #follow = new AbortController()
  #unsubscribe: () => void = () => {}
  /** The newest thread list the store reported, for the next `local` step. */
  #latestList: readonly ThreadRecord[] | null = null
  readonly #ready: Promise<void>
  #started = false

  constructor(options: SyncOptions) {
    this.#options = options
    this.#base = options.url.replace(/\/+$/, '')
    this.#http = createStreamHttp({ headers: options.headers, fetch: options.fetch })
    this.#stateStore =
      options.state ?? (options.threads.persistent ? indexedDbSyncState({ name: options.lockName ?? 'threadlens-sync' }) : inMemorySyncState())
    // Never rejects: a start that failed (stopped first, storage refused) leaves the engine idle, said in the status.
    this.#ready = this.#start().then(
      () => {
        this.#started = true
      },
      (error: unknown) => {
        if (this.#stopped) return
        this.#lastError = error
        this.#publish()
      },
    )
  }

  /** Holds the tab's sync lock until `stop()`. */
  #releaseLock: () => void = () => {}

  async #start(): Promise<void> {
    const locks = webLocks()
    if (locks !== undefined) {
      this.status.set({ state: 'standby' })
      const held = new Promise<void>((resolve) => {
        this.#releaseLock = resolve
      })
      await new Promise<void>((granted, refused) => {
        locks
          .request(this.#options.lockName ?? 'threadlens-sync', { signal: this.#follow.signal }, () => {
            granted()
            return held
          })
          .catch(refused)
      })
      this.status.set({ state: 'starting' })
    }
    const createId = this.#options.createId ?? (() => crypto.randomUUID())
    this.#device = await this.#stateStore.loadDevice(createId)
    for (const state of await this.#stateStore.loadThreads()) this.#threads.set(state.threadId, state)
    for (const state of await this.#stateStore.loadMemories()) this.#memories.set(state.memoryId, state)
    // Notices read before a reload or crash whose streams were not read yet.
    for (const state of this.#threads.values()) if (state.behind === true) this.#schedule(`thread:${state.threadId}`)
    const memory = this.#options.memory
    // Each memory is read once at start (a notice read before a reload is not written down for memory).
    for (const memoryId of memory?.ids ?? []) this.#schedule(`memory:${memoryId}`)
    const stops = (memory?.ids ?? []).map((memoryId) =>
      memory!.store.subscribe(memoryId, (event) => {
        if (event.type === 'memory-update') this.#schedule(`memory:${memoryId}`)
      }),
    )
    const stopList = this.#options.threads.subscribeList((event) => {
      if (event.type !== 'list-update') return
      this.#latestList = event.threads
      this.#schedule('local')
    })
    this.#unsubscribe = () => {
      stopList()
      for (const stop of stops) stop()
    }
    this.#schedule('index')
    if (this.#options.live !== false) void this.#followIndex()
  }

  // ---- scheduling: one step at a time, each thread or the index at most once in the queue ----

  #schedule(key: string): void {
    if (this.#stopped) return
    this.#queue.add(key)
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = null
      this.#publish()
    })
  }

  async #drain(): Promise<void> {
    await this.#ready
    while (this.#started && this.#queue.size > 0 && !this.#stopped) {
      const key = this.#queue.values().next().value!
      this.#queue.delete(key)
      try {
        if (key === 'index') await this.#syncIndex()
        else if (key === 'local') await this.#localChange()
        else if (key.startsWith('memory:')) await this.#syncMemory(key.slice('memory:'.length))
        else await this.#syncThread(key.slice('thread:'.length))
        this.#failures = 0
        if (this.#lastError !== null) {
          // Back online: the status says so now, not when the queue is next empty.
          this.#lastError = null
          this.#publish()
        }
      } catch (error) {
        if (this.#stopped) return
        if (
          SyncError.isInstance(error) &&
          (error.code === 'schema-version' || error.code === 'content-type' || error.code === 'malformed') &&
          key.startsWith('thread:')
        ) {
          // This thread's stream cannot be read by this code: it stops (shown in the status), the rest goes on.
          await this.#halt(key.slice('thread:'.length), error)
          continue
        }
        this.#lastError = error
        // The server is away (or refused): keep the step, wait, and try everything again.
        this.#queue.add(key)
        this.#retryLater()
        return
      }
    }
  }

  #retryLater(): void {
    clearTimeout(this.#retryTimer)
    const delay = retryDelay(this.#failures++, this.#options.random ?? Math.random)
    this.#retryTimer = setTimeout(() => {
      const keys = [...this.#queue]
      this.#queue.clear()
      for (const key of keys) this.#schedule(key)
    }, delay)
  }

  async #halt(threadId: string, error: SyncError): Promise<void> {
    const state = this.#threads.get(threadId)
    if (state !== undefined) await this.#save({ ...state, halted: { code: error.code, message: error.message } })
  }

  async #whenIdle(): Promise<void> {
    for (let round = 0; round < 1_000 && this.#draining !== null; round++) await this.#draining
  }

  // ---- status ----

  #pending(): number {
    let pending = 0
    for (const [threadId, record] of this.#records) {
      const state = this.#threads.get(threadId)
      if (state !== undefined && !state.deleted) pending += Math.max(0, record.entryCount - state.synced)
    }
    return pending
  }

  #publish(): void {
    if (this.#stopped) return this.status.set({ state: 'stopped' })
    const pending = this.#pending() + (this.#started ? this.#device.indexOutbox.length : 0)
    const halted = [...this.#threads.values()].find((state) => state.halted !== null && !state.deleted)
    const error = this.#lastError
    const syncError = SyncError.isInstance(error) ? error : null
    let state: SyncStatus['state'] = pending > 0 || this.#queue.size > 0 ? 'pending' : 'synced'
    if (error !== null) state = syncError?.code === 'network' || syncError?.code === 'http' ? 'offline' : 'error'
    else if (halted !== undefined) state = 'error'
    const shown =
      syncError ?? (halted === undefined ? null : new SyncError(halted.halted!.code, this.#threadUrl(halted.threadId), halted.halted!.message))
    this.status.set({
      state,
      pending,
      error: error === null && halted === undefined ? null : shown,
      ...(state === 'synced' ? { lastSyncedAt: Date.now() } : {}),
    })
  }

  // ---- state ----

  /** After `stop()` nothing more is written: a step still awaiting an answer ends at its next write. */
  #assertRunning(): void {
    if (this.#stopped) throw new Error('sync stopped')
  }

  async #save(state: ThreadSyncState): Promise<void> {
    this.#assertRunning()
    this.#threads.set(state.threadId, state)
    await this.#stateStore.saveThread(state)
  }

  async #saveDevice(device: DeviceSyncState): Promise<void> {
    this.#assertRunning()
    this.#device = device
    await this.#stateStore.saveDevice(device)
  }

  #threadUrl(threadId: string): string {
    return `${this.#base}/threads/${encodeURIComponent(threadId)}`
  }

  async #enqueueIndex(message: IndexMessage): Promise<void> {
    // A change notice already waiting says it all: the index grows by one per burst, not per push.
    const waiting = this.#device.indexOutbox.some((queued) => queued.type === message.type && JSON.stringify(queued) === JSON.stringify(message))
    if (waiting && (message.type === 'changed' || message.type === 'memory-changed')) return this.#schedule('index')
    await this.#saveDevice({ ...this.#device, indexOutbox: [...this.#device.indexOutbox, message] })
    this.#schedule('index')
  }

  // ---- local changes: new threads, edits, appends, deletions (a step, so one thing changes state at a time) ----

  async #localChange(): Promise<void> {
    const records = this.#latestList
    this.#latestList = null
    if (records === null) return
    const present = new Set<string>()
    for (const record of records) {
      present.add(record.id)
      let state = this.#threads.get(record.id)
      if (state === undefined && !(this.#options.include?.(record) ?? true)) continue
      this.#records.set(record.id, record)
      if (state === undefined) {
        state = newThreadState(record.id)
        await this.#save(state)
      }
      if (state.deleted) continue
      const wire = wireRecord(record)
      if (!sameRecord(state.record ?? undefined, wire)) {
        // The message first: a crash before the state is saved sends the same record twice, never not at all.
        await this.#enqueueIndex({ v: wireVersion, type: 'record', device: this.#device.deviceId, record: wire })
        state = { ...state, record: wire }
        await this.#save(state)
      }
      if (record.entryCount > state.synced || state.inflight !== null) this.#schedule(`thread:${record.id}`)
    }
    for (const state of this.#threads.values()) {
      if (present.has(state.threadId) || state.deleted || state.record === null) continue
      // The list may be older than a thread this step's predecessors created: ask the store.
      if ((await this.#options.threads.get(state.threadId)) !== undefined) continue
      // Deleted on this device: close its stream and tell the others.
      this.#records.delete(state.threadId)
      await this.#enqueueIndex({ v: wireVersion, type: 'delete', device: this.#device.deviceId, threadId: state.threadId })
      await this.#save({ ...state, deleted: true })
    }
    this.#publish()
  }

  // ---- one thread ----

  #context(): ThreadStreamContext {
    return {
      http: this.#http,
      place: (threadId, keep, entries) => {
        this.#assertRunning()
        return this.#options.threads.placeSynced(threadId, keep, entries)
      },
      entriesFrom: (threadId, fromSeq) => this.#options.threads.entriesFrom(threadId, fromSeq),
      deviceId: this.#device.deviceId,
      urlOf: (threadId) => this.#threadUrl(threadId),
      save: (state) => this.#save(state),
      reject: (error) => this.#reject(error),
      announce: (threadId) => this.#enqueueIndex({ v: wireVersion, type: 'changed', device: this.#device.deviceId, threadId }),
      closed: (state) => this.#deletedElsewhere(state),
      upload: async (entries) => {
        if (this.#options.attachments !== undefined) await uploadAttachments(this.#options.attachments, entries, this.#uploaded)
      },
      download: (threadId, entries) => this.#download(threadId, entries),
    }
  }

  /** Downloads what placed entries use; gives what the endpoint lacks yet (`[id, mediaType]`), tried again next step. */
  async #download(threadId: string, entries: readonly WireEntry[]): Promise<readonly (readonly [string, string])[]> {
    const attachments = this.#options.attachments
    if (attachments === undefined || entries.length === 0) return []
    const missing = new Set(await downloadAttachments(attachments, threadId, entries))
    return [...attachmentsIn(entries)].filter(([id]) => missing.has(id))
  }

  #reject(error: SyncRejectedError): void {
    const status = this.status.getSnapshot()
    this.status.set({ rejected: [...status.rejected, error].slice(-20) })
    if (this.#options.onRejected === undefined) console.warn(`[threadlens] ${error.message}`)
    else this.#options.onRejected(error)
  }

  async #syncThread(threadId: string): Promise<void> {
    let state = this.#threads.get(threadId)
    if (state === undefined || state.deleted || state.halted !== null) return
    // Entries wait for their thread's record (the index gives it before it announces entries).
    if ((await this.#options.threads.get(threadId)) === undefined) return
    const context = this.#context()
    if ((state.blobs?.length ?? 0) > 0) {
      // Attachments the endpoint did not have last time.
      const wanted = state.blobs!.map(([id, mediaType]) => ({ payload: { source: { type: 'attachment', id, mediaType } } }) as unknown as WireEntry)
      state = { ...state, blobs: await this.#download(threadId, wanted) }
      await this.#save(state)
    }
    for (let round = 0; round < 1_000 && !state.deleted && !this.#stopped; round++) {
      // Push first (what the user wrote reaches the server one round trip sooner), then read the
      // stream: it places the push and anything that came before it.
      const before = state
      state = await pushThread(context, state)
      if (state.deleted) break
      const pushed = state !== before
      // The stream is read once in any case, and again after each push to read it back.
      if (pushed || round === 0) state = await pullThread(context, state)
      if (state.behind === true) {
        state = { ...state, behind: false }
        await this.#save(state)
      }
      if (!pushed || state.deleted) break
      // A thread appended to without pause must not starve the others and the index: when other
      // steps wait, this one goes on after them.
      if (this.#queue.size > 0) {
        this.#queue.add(`thread:${threadId}`)
        break
      }
    }
    const record = await this.#options.threads.get(threadId)
    if (record !== undefined) this.#records.set(threadId, record)
  }

  /** The thread's stream is closed: delete it here, first keeping its unsynced entries in a new thread. */
  async #deletedElsewhere(state: ThreadSyncState): Promise<ThreadSyncState> {
    const deleted = { ...state, deleted: true, inflight: null }
    await this.#save(deleted)
    this.#records.delete(state.threadId)
    const record = await this.#options.threads.get(state.threadId)
    if (record === undefined) return deleted
    this.#assertRunning()
    if (record.entryCount > state.synced) {
      const copy = await this.#options.threads.fork(state.threadId, { atSeq: record.lastSeq, title: `${record.title || 'Untitled'} (recovered)` })
      const status = this.status.getSnapshot()
      this.status.set({ recovered: [...status.recovered, { from: state.threadId, to: copy.id }] })
    }
    this.#assertRunning()
    await this.#options.threads.delete(state.threadId)
    return deleted
  }

  // ---- memory ----

  async #syncMemory(memoryId: string): Promise<void> {
    const store = this.#options.memory?.store
    if (store === undefined) return
    const context: MemoryStreamContext = {
      http: this.#http,
      memory: store,
      deviceId: this.#device.deviceId,
      createId: this.#options.createId ?? (() => crypto.randomUUID()),
      urlOf: (id) => `${this.#base}/memory/${encodeURIComponent(id)}`,
      save: async (state) => {
        this.#assertRunning()
        this.#memories.set(state.memoryId, state)
        await this.#stateStore.saveMemory(state)
      },
      reject: (error) => this.#reject(error),
      conflict: (error) => {
        const status = this.status.getSnapshot()
        this.status.set({ conflicts: [...status.conflicts, error].slice(-20) })
        this.#options.onConflict?.(error)
      },
    }
    let state = await pullMemory(context, this.#memories.get(memoryId) ?? newMemoryState(memoryId))
    const before = state
    state = await pushMemory(context, state)
    if (state !== before) {
      await this.#enqueueIndex({ v: wireVersion, type: 'memory-changed', device: this.#device.deviceId, memoryId })
      await pullMemory(context, state)
    }
  }

  // ---- the index: records, deletions, change notices ----

  async #syncIndex(): Promise<void> {
    await this.#pushIndex()
    const url = `${this.#base}/index`
    for (let page = 0; page < 1_000; page++) {
      const read = await this.#http.read(url, this.#device.indexOffset, { live: false })
      if (read.kind === 'missing') break
      for (const value of read.messages) await this.#applyIndex(value)
      await this.#saveDevice({ ...this.#device, indexOffset: read.nextOffset })
      if (read.upToDate || read.messages.length === 0) break
    }
    this.#publish()
  }

  async #pushIndex(): Promise<void> {
    const url = `${this.#base}/index`
    for (let round = 0; round < 1_000; round++) {
      let push = this.#device.indexInflight
      if (push === null) {
        const messages = this.#device.indexOutbox.slice(0, maxIndexBatch)
        if (messages.length === 0) return
        const { epoch, seq } = this.#device.indexProducer
        push = { epoch, seq, body: JSON.stringify(messages), ids: [] }
        await this.#saveDevice({ ...this.#device, indexInflight: push, indexOutbox: this.#device.indexOutbox.slice(messages.length) })
      }
      // A deleted thread's stream closes before the index says so: a push that comes later is refused
      // (and its entries recovered), never taken into a thread the others are deleting.
      await this.#closeDeleted(push.body)
      const sent = await sendPush(this.#http, url, this.#device.deviceId, push, (renewed) =>
        this.#saveDevice({ ...this.#device, indexInflight: renewed }),
      )
      push = sent.push
      const { outcome } = sent
      if (outcome.kind !== 'stored') throw new SyncError('http', url, `The sync server would not take the index's messages (${outcome.kind}).`)
      await this.#saveDevice({ ...this.#device, indexInflight: null, indexProducer: { epoch: push.epoch, seq: push.seq + 1 } })
    }
  }

  /** Closes the streams of threads the pushed messages deleted. */
  async #closeDeleted(body: string): Promise<void> {
    for (const message of JSON.parse(body) as IndexMessage[]) {
      if (message.type === 'delete') await this.#http.close(this.#threadUrl(message.threadId))
    }
  }

  async #applyIndex(value: unknown): Promise<void> {
    const message = readIndexMessage(value)
    if (isRefusal(message)) {
      if (message.kind === 'newer')
        throw new SyncError(
          'schema-version',
          `${this.#base}/index`,
          `The index holds messages of sync format ${String(message.version)}; this code reads format ${wireVersion}. Update the app to sync.`,
        )
      this.#reject(new SyncRejectedError('(index)', this.#device.indexOffset, message.reason))
      return
    }
    if (message.type === 'record') return this.#applyRecord(message.record)
    if (message.type === 'memory-changed') {
      if (message.device !== this.#device.deviceId && this.#options.memory?.ids.includes(message.memoryId) === true)
        this.#schedule(`memory:${message.memoryId}`)
      return
    }
    const state = this.#threads.get(message.threadId)
    if (message.type === 'changed') {
      if (message.device !== this.#device.deviceId || state === undefined) {
        // Written down before the index's offset moves past this notice: the read survives a reload.
        await this.#save({ ...(state ?? newThreadState(message.threadId)), behind: true })
        this.#schedule(`thread:${message.threadId}`)
      }
      return
    }
    if (state?.deleted !== true) await this.#deletedElsewhere(state ?? newThreadState(message.threadId))
  }

  async #applyRecord(remote: WireRecord): Promise<void> {
    const state = this.#threads.get(remote.id) ?? newThreadState(remote.id)
    if (state.deleted) return
    const local = await this.#options.threads.get(remote.id)
    // A thread new here is read once created, even after a reload in between.
    await this.#save({ ...state, record: remote, ...(local === undefined ? { behind: true } : {}) })
    const fields = { title: remote.title, metadata: remote.metadata, tags: remote.tags, model: remote.model, policyName: remote.policyName }
    this.#assertRunning()
    if (local === undefined) {
      const created = await this.#options.threads.create({ id: remote.id, ...fields })
      this.#records.set(remote.id, created)
      this.#schedule(`thread:${remote.id}`)
    } else if (!sameRecord(wireRecord(local), remote)) {
      this.#records.set(remote.id, await this.#options.threads.update(remote.id, fields))
    }
  }

  /** Long-polls the index: each answer with news schedules a catch-up. Errors back off like steps do. */
  async #followIndex(): Promise<void> {
    await this.#ready
    if (!this.#started) return
    const url = `${this.#base}/index`
    let failures = 0
    while (!this.#stopped) {
      await this.#whenIdle()
      if (this.#stopped) return
      try {
        const read = await this.#http.read(url, this.#device.indexOffset, { live: true, signal: this.#follow.signal })
        // No index yet (nothing pushed by anyone): look again later, less and less often.
        if (read.kind === 'missing') await new Promise((resolve) => setTimeout(resolve, retryDelay(failures++, this.#options.random ?? Math.random)))
        else {
          failures = 0
          if (read.messages.length > 0) this.#schedule('index')
        }
      } catch {
        if (this.#stopped) return
        await new Promise((resolve) => setTimeout(resolve, retryDelay(failures++, this.#options.random ?? Math.random)))
      }
    }
  }

  // ---- public ----

  async syncNow(): Promise<void> {
    await this.#ready
    if (!this.#started) throw this.#lastError ?? new Error('sync was stopped before it started')
    // A step already running finishes first; its failure is not this call's. A retry waiting for its time runs now instead.
    await this.#whenIdle()
    clearTimeout(this.#retryTimer)
    this.#lastError = null
    this.#latestList = await this.#options.threads.list()
    this.#schedule('local')
    this.#schedule('index')
    for (const [threadId, state] of this.#threads) if (!state.deleted) this.#schedule(`thread:${threadId}`)
    for (const memoryId of this.#options.memory?.ids ?? []) this.#schedule(`memory:${memoryId}`)
    for (let round = 0; round < 100; round++) {
      await this.#whenIdle()
      if (this.#lastError !== null) throw this.#lastError
      if (this.#queue.size === 0 && this.#device.indexOutbox.length === 0 && this.#device.indexInflight === null) break
      this.#schedule('index')
    }
    this.#publish()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retryTimer)
    this.#follow.abort()
    this.#releaseLock()
    this.#unsubscribe()
    await this.#draining?.catch(() => {})
    await this.#ready.catch(() => {})
    this.#publish()
  }
}

/**
 * Starts syncing `threads` through the Durable Streams server at `url`. Appends keep landing in the
 * store at once; sync pushes them from its outbox and places other devices' entries in the
 * stream's order. Stop it with `stop()`.
 */
export function createSync(options: SyncOptions): ThreadSync {
  return new SyncEngine(options)
}
