import type { MemoryStore } from '@threadlens/store'
import type { Memory } from '@threadlens/core'
import type { Space } from '@threadlens/core/memory'
import { RefcountedStore } from './refcounted-store'

export interface MemorySnapshot {
  readonly memoryId: string
  readonly status: 'loading' | 'ready' | 'error'
  /** The memory as of its last committed write (a new object per rev). */
  readonly memory: Memory | undefined
  readonly error: unknown
}

/** Follows one memory (one agent's spaces) across writes from every tab. */
export class LiveMemory extends RefcountedStore<MemorySnapshot> {
  readonly #memory: MemoryStore | undefined
  readonly memoryId: string
  #stopListening: (() => void) | undefined

  constructor(memory: MemoryStore | undefined, memoryId: string) {
    super({ memoryId, status: 'loading', memory: undefined, error: undefined })
    this.#memory = memory
    this.memoryId = memoryId
  }

  protected start(): void {
    if (this.#memory === undefined) {
      this.store.setState({
        status: 'error',
        error: new Error('[threadlens] useMemory needs a memory store: createThreadlensClient({ threads, memory })'),
      })
      return
    }
    this.#stopListening = this.#memory.subscribe(this.memoryId, (event) => {
      if (event.type === 'storage-fail') {
        this.store.setState({ status: 'error', error: event.error })
        return
      }
      const current = this.store.getState().memory
      // Same rev, same content: keep the old object so nothing re-renders.
      if (current !== undefined && current.rev === event.memory.rev && current.updatedAt === event.memory.updatedAt) {
        if (this.store.getState().status !== 'ready') this.store.setState({ status: 'ready' })
        return
      }
      this.store.setState({ status: 'ready', memory: shareUnchangedSpaces(current, event.memory), error: undefined })
    })
  }

  protected stop(): void {
    this.#stopListening?.()
    this.#stopListening = undefined
  }
}

/**
 * Spaces whose rev did not change keep their previous objects (IndexedDB hands back fresh copies
 * on every read), so a selector on one space ignores writes to another.
 */
function shareUnchangedSpaces(previous: Memory | undefined, next: Memory): Memory {
  if (previous === undefined) return next
  let shared = false
  const spaces: Record<string, Space> = {}
  for (const [name, space] of Object.entries(next.spaces)) {
    const old = previous.spaces[name]
    if (old !== undefined && old.rev === space.rev && old.kind === space.kind) {
      spaces[name] = old
      shared = true
    } else spaces[name] = space
  }
  return shared ? { ...next, spaces: spaces as Memory['spaces'] } : next
}
