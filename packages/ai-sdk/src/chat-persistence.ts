import type { CallRecord, EntryInput, Thread } from '@threadlens/core'
import { threadId as toThreadId } from '@threadlens/core/internal'
import type { ThreadStore } from '@threadlens/store'
import { StorageError } from '@threadlens/store'
import type { AttachmentStore } from '@threadlens/store/attachments'
import type { UIMessage } from 'ai'
import { noteInvalidMetadata, oncePerMessage } from './call-metadata'
import { createLock } from './chat-lock'
import { InvalidAdapterOptionsError, type InvalidCallMetadataError } from './errors'
import { pendingCallStore } from './pending-calls'
import type { FileKeeper } from './ui-attachments'
import { divergence, inputsToAppend, json, storedMessages } from './stored-messages'
import { entriesToUIMessages, type UIMessageEntriesOptions } from './ui-message-entries'

export interface ChatPersistenceOptions {
  /**
   * Where the chat lives (`openThreadlensStores(...).threads`, or the in-memory fallback), or a
   * promise of it, so a module can set up the chat before the database is open.
   */
  readonly store: ThreadStore | PromiseLike<ThreadStore>
  /**
   * The chat's id: its first thread has this id; branches made by regenerate and edit are threads
   * `<chatId>:v1`, `<chatId>:v2`, … and the newest one is the chat's current thread. 1-120
   * characters of A-Z a-z 0-9 _ . : -
   */
  readonly chatId: string
  /** How UI messages become entries (inline file limit). Default: see `UIMessageEntriesOptions`. */
  readonly entries?: UIMessageEntriesOptions
  /** Title of the chat's threads when created. Default: `''`. */
  readonly title?: string
  /**
   * Where the bytes of `data:` file parts (a user's files, a model's generated images) are kept
   * (`openThreadlensStores(...).attachments`), or its promise: each file once, outside the thread's
   * entries, which reference it; `load` gives the same `data:` URLs back, and the projection sends the
   * bytes from there. Default: none (a `data:` URL is kept inline in the thread, up to
   * `entries.maxInlineFileChars`).
   */
  readonly attachments?: AttachmentStore | PromiseLike<AttachmentStore>
  /**
   * Where the record of a call still being answered is kept until its reply is saved, so a page that
   * reloads mid-answer and resumes the reply (`useChat({ resume: true })`) still stores it. Default:
   * the tab's `sessionStorage` where there is one (survives a reload of the tab, and only that).
   */
  readonly pendingCalls?: Storage
  /** Told once per message whose call metadata from the server (`projectedMessageMetadata`) is unreadable and ignored. Default: `console.warn`. */
  readonly onInvalidMetadata?: (problem: InvalidCallMetadataError) => void
}

export interface SaveResult {
  /** The chat's current thread after the save (a new branch when the save forked). */
  readonly threadId: string
  /** Entries appended. `0` when everything was already stored (saving is idempotent). */
  readonly appended: number
  /** The save started a new branch because a message this tab had seen was replaced or removed. */
  readonly forked: boolean
}

export interface ChatPersistence {
  readonly chatId: string
  /** The chat's current thread, as of the last `load`, `save` or branch seen from another tab. */
  currentThreadId(): string
  /** The current thread's messages, for `useChat({ messages })`. Creates the chat's thread when missing. */
  load(): Promise<UIMessage[]>
  /**
   * Stores `messages` (the whole list `useChat` holds) onto the append-only thread:
   * - messages not stored yet are appended, in order, after whatever is stored (also what another tab wrote);
   * - a stored message that grew (a tool result after an approval, a continued step) gets its new entries appended;
   * - a stored message this tab has seen that is now replaced (edit) or gone (regenerate) starts a
   *   branch: the thread is forked just before it and the list is stored in the branch. The old
   *   branch stays as it was.
   * Idempotent by message id; runs under a cross-tab lock (Web Locks) so two tabs never interleave a
   * save. Messages with no parts (a reply that failed before it began) are not stored.
   */
  save(messages: readonly UIMessage[]): Promise<SaveResult>
  /**
   * Calls `listener` with the current thread's messages whenever it changes in any tab (appends,
   * or a new branch). Returns the function that stops it.
   */
  watch(listener: (messages: UIMessage[]) => void): () => void
  /**
   * Remembers the record of the model call that writes step `callId` (`<messageId>:<step>`); the
   * save that stores that step puts it on the step's first entry (`meta.call`) for the devtools.
   */
  recordCall(callId: string, record: CallRecord): void
  /** The chat's current thread, read whole from the store. */
  thread(): Promise<Thread>
  /** Appends entries (a summary, a context op) to the current thread under the chat's lock. */
  append(inputs: readonly EntryInput[]): Promise<void>
  /** The store the chat lives in. */
  store(): Promise<ThreadStore>
  /** The attachment store the chat keeps files in (`options.attachments`), or `undefined`. */
  attachments(): Promise<AttachmentStore | undefined>
  /** Stops hearing about other tabs' branches (closes the chat's BroadcastChannel). Saves still work. */
  close(): void
}

const chatIdPattern = /^[A-Za-z0-9_.:-]{1,120}$/

/** Most branches a save tries to create when other tabs take the same ids at the same time. */
const MAX_BRANCH_ATTEMPTS = 8

// long: small operations (load, save, watch, append…) over one chat's shared state (its current branch, lock and channel), each short; apart, they would pass that state around.
/**
 * Persistence for `useChat`: initial messages from the store, every finished message appended
 * (idempotent by id, cross-tab safe), regenerate and edit stored as branches of the append-only thread.
 */
export function createChatPersistence(options: ChatPersistenceOptions): ChatPersistence {
  const { chatId } = options
  const storePromise = Promise.resolve(options.store)
  let store: ThreadStore | undefined
  void storePromise.then(
    (resolved) => (store = resolved),
    () => undefined,
  )
  const storeOf = async (): Promise<ThreadStore> => store ?? (store = await storePromise)
  if (!chatIdPattern.test(chatId)) {
    throw new InvalidAdapterOptionsError(
      `chatId must be 1-120 characters of A-Z a-z 0-9 _ . : - (got ${JSON.stringify(chatId.slice(0, 40))}); useChat's generated ids qualify`,
    )
  }
  // The code that moves files to the attachment store loads only for a chat that has one.
  let keeper: Promise<FileKeeper> | undefined
  const attachmentStore = options.attachments
  const filesOf = (): Promise<FileKeeper | undefined> =>
    attachmentStore === undefined
      ? Promise.resolve(undefined)
      : (keeper ??= import('./ui-attachments').then(({ fileKeeper }) => fileKeeper(attachmentStore)))
  const calls = new Map<string, CallRecord>()
  const pending = pendingCallStore(options.pendingCalls, chatId)
  const entryOptions: UIMessageEntriesOptions = {
    ...options.entries,
    callRecordFor: (callId) => calls.get(callId) ?? pending.get(callId) ?? options.entries?.callRecordFor?.(callId),
  }
  const withLock = createLock(`threadlens-ai-sdk:${chatId}`)
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(`threadlens-ai-sdk:${chatId}`)
  let current = chatId
  const reportInvalid = oncePerMessage(
    options.onInvalidMetadata ?? ((problem: InvalidCallMetadataError) => console.warn(`threadlens: ${problem.message}`)),
  )
  /** Ids of the messages this tab has loaded or saved: only those can be replaced or removed by it. */
  let known = new Set<string>()

  const branchGeneration = (id: string): number => {
    if (id === chatId) return 0
    const match = /:v(\d+)$/.exec(id)
    return id.startsWith(`${chatId}:v`) && match !== null ? Number(match[1]) : -1
  }

  /** The newest branch of the chat, creating the chat's first thread when there is none. */
  const resolveHead = async (): Promise<{ id: string; generation: number }> => {
    let best: { id: string; generation: number } | undefined
    for (const record of await (await storeOf()).list()) {
      const generation = branchGeneration(record.id)
      if (generation >= 0 && (best === undefined || generation > best.generation)) best = { id: record.id, generation }
    }
    if (best === undefined) {
      try {
        await (await storeOf()).create({ id: chatId, title: options.title ?? '' })
      } catch (error) {
        if (!(StorageError.isInstance(error) && error.code === 'constraint')) throw error
      }
      best = { id: chatId, generation: 0 }
    }
    current = best.id
    return best
  }

  const branchBefore = async (head: { id: string; generation: number }, seq: number): Promise<string> => {
    for (let attempt = 1; attempt <= MAX_BRANCH_ATTEMPTS; attempt += 1) {
      const id = toThreadId(`${chatId}:v${head.generation + attempt}`)
      try {
        if (seq <= 0) await (await storeOf()).create({ id, title: options.title ?? '' })
        else await (await storeOf()).fork(head.id, { atSeq: seq - 1, id })
        return id
      } catch (error) {
        if (!(StorageError.isInstance(error) && error.code === 'constraint')) throw error
      }
    }
    throw new InvalidAdapterOptionsError(
      `could not create a branch of chat "${chatId}" after ${MAX_BRANCH_ATTEMPTS} attempts: other tabs keep taking the ids`,
    )
  }

  const load = async (): Promise<UIMessage[]> => {
    const head = await resolveHead()
    const stored = entriesToUIMessages((await (await storeOf()).load(head.id)).entries)
    known = new Set(stored.map((message) => message.id))
    const files = await filesOf()
    return files === undefined ? stored : files.resolve(stored)
  }

  const save = (all: readonly UIMessage[]): Promise<SaveResult> =>
    withLock(async () => {
      // A message with no parts (a reply that failed before its first chunk) holds nothing to keep.
      const given = all.filter((message) => message.parts.length > 0)
      noteInvalidMetadata(given, reportInvalid)
      const head = await resolveHead()
      let target = head.id
      let stored = storedMessages((await (await storeOf()).load(target)).entries)
      // Files' bytes go to the attachment store; the messages are compared and stored with references.
      // A message stored with its files inline (before the chat had an attachment store) stays so.
      const files = await filesOf()
      const keptInline = (message: UIMessage): boolean => json(stored.get(message.id)?.message) === json(message)
      const messages =
        files === undefined
          ? given
          : (await files.storedForms(head.id, given)).map((message, index) =>
              keptInline(given[index] as UIMessage) ? (given[index] as UIMessage) : message,
            )
      const incoming = new Map(messages.map((message) => [message.id, message]))
      const divergeAt = divergence(stored, incoming, known, entryOptions)
      if (divergeAt !== undefined) {
        target = await branchBefore(head, divergeAt)
        current = target
        stored = storedMessages((await (await storeOf()).load(target)).entries)
      }
      const inputs = inputsToAppend(messages, stored, entryOptions)
      if (target !== head.id) await files?.keepFor(target, messages)
      if (inputs.length > 0) await (await storeOf()).appendMany(target, inputs)
      for (const input of inputs) if (input.meta?.call !== undefined && input.refs?.callId !== undefined) pending.remove(input.refs.callId)
      known = new Set(messages.map((message) => message.id))
      if (divergeAt !== undefined) {
        try {
          channel?.postMessage({ type: 'branch-create', threadId: target })
        } catch {
          // closed: other tabs find the branch on their next load or save
        }
      }
      return { threadId: target, appended: inputs.length, forked: divergeAt !== undefined }
    })

  const watch = (listener: (messages: UIMessage[]) => void): (() => void) => {
    let stopped = false
    let unsubscribe: () => void = () => undefined
    const refresh = async (): Promise<void> => {
      const before = current
      const messages = await load()
      if (stopped) return
      if (current !== before) follow()
      listener(messages)
    }
    const follow = (): void => {
      unsubscribe()
      unsubscribe = (store as ThreadStore).subscribe(current, (event) => {
        // A rebase (a sync moved stored entries) changes the messages as much as an append does.
        if (event.type === 'entry-append' || event.type === 'thread-rebase') void refresh()
      })
    }
    const onBranch = (): void => void refresh()
    channel?.addEventListener('message', onBranch)
    void resolveHead().then(() => {
      if (!stopped) follow()
    })
    return () => {
      stopped = true
      unsubscribe()
      channel?.removeEventListener('message', onBranch)
    }
  }

  const recordCall = (callId: string, record: CallRecord): void => {
    calls.set(callId, record)
    pending.set(callId, record)
  }

  const thread = async (): Promise<Thread> => {
    const head = await resolveHead()
    return (await storeOf()).load(head.id)
  }

  const append = (inputs: readonly EntryInput[]): Promise<void> =>
    withLock(async () => {
      const head = await resolveHead()
      await (await storeOf()).appendMany(head.id, inputs)
    })

  const close = (): void => channel?.close()

  return {
    chatId,
    currentThreadId: () => current,
    load,
    save,
    watch,
    recordCall,
    thread,
    append,
    store: storeOf,
    attachments: async () => attachmentStore,
    close,
  }
}
