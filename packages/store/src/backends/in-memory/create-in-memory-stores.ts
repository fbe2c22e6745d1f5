import { type Memory } from '@threadlens/core'
import { createMemory } from '@threadlens/core/memory'
import { deepFreeze } from '@threadlens/core/internal'
import type { AttachmentStore } from '../../attachments/attachment-store'
import { createMemoryAttachmentStore } from './attachment-store'
import type { CallLogStore } from '../../calls/call-log-store'
import { createMemoryCallLog } from './call-log'
import type { MemoryStore, MemoryStoreListener } from '../../memory/memory-store'
import { memoryStoreOnBackend } from '../../memory/memory-store-on-backend'
import { resolveThreadStoreOptions, threadStoreOnBackend } from '../../threads/thread-store-on-backend'
import type { ThreadStore, ThreadStoreOptions } from '../../threads/thread-store'
import { memoryThreadBackend } from './thread-backend'

export interface MemoryBackedStores {
  readonly threads: ThreadStore
  readonly memory: MemoryStore
  /** Failed attempts and token calibrations, in memory. */
  readonly calls: CallLogStore
  /** Images and files, in memory. */
  readonly attachments: AttachmentStore
  /** Always `false`: nothing survives a reload. Show it in the UI. */
  readonly persistent: false
}

/**
 * The same thread and memory store API with nothing persisted: the fallback when IndexedDB is
 * unavailable (private browsing, disabled site data), and handy in tests. Same validation, seq
 * rules, events and import/export; a windowed `load` returns the whole thread (it is in memory anyway).
 */
export function createMemoryBackedStores(options: ThreadStoreOptions = {}): MemoryBackedStores {
  const calls = createMemoryCallLog(options.now === undefined ? {} : { now: options.now })
  const attachments = createMemoryAttachmentStore(options.now === undefined ? {} : { now: options.now })
  const { now, createId } = resolveThreadStoreOptions(options)
  const memories = new Map<string, Memory>()
  const memoryListeners = new Map<string, Set<MemoryStoreListener>>()
  const threadStore = threadStoreOnBackend(
    memoryThreadBackend({
      onAppend: (entries) => calls.addFromEntries(entries),
      onDelete: (threadId) => calls.deleteThread(threadId),
      onEraseAll: () => memories.clear(),
      attachments,
    }),
    options,
  )

  const memoryStore = memoryStoreOnBackend({
    persistent: false,
    createId,
    get: async (memoryId) => memories.get(memoryId) ?? createMemory(memoryId, now()),
    change: async (memoryId, _operation, change) => {
      const time = now()
      const next = deepFreeze(change(memories.get(memoryId) ?? createMemory(memoryId, time), time))
      memories.set(memoryId, next)
      const listeners = memoryListeners.get(memoryId)
      if (listeners !== undefined) queueMicrotask(() => listeners.forEach((listener) => listener({ type: 'memory-update', memory: next })))
      return next
    },
    subscribe: (memoryId, listener) => {
      let listeners = memoryListeners.get(memoryId)
      if (listeners === undefined) {
        listeners = new Set()
        memoryListeners.set(memoryId, listeners)
      }
      listeners.add(listener)
      const current = memories.get(memoryId) ?? createMemory(memoryId, now())
      queueMicrotask(() => {
        if (listeners.has(listener)) listener({ type: 'memory-update', memory: current })
      })
      return () => {
        listeners.delete(listener)
      }
    },
  })

  return { threads: threadStore, memory: memoryStore, calls, attachments, persistent: false }
}
