import { InvalidMemoryOperationError } from '@threadlens/core'
import { type Task } from '@threadlens/core/memory'
import { memoryIdReader, read } from '@threadlens/core/internal'
// Repeated on purpose: the names packages/core/src/memory/index.ts exports (this list imports the operations the store applies).
import {
  createSpace,
  deleteSpace,
  mapDelete,
  mapPut,
  tasksAdd,
  tasksComplete,
  tasksInsert,
  tasksNext,
  tasksOpen,
  tasksRemove,
  tasksReorder,
  updateSpace,
  worldGet,
  type WriteOptions,
} from '@threadlens/core/memory'
import type { AddTaskOptions, MemoryBackend, MemoryStore } from './memory-store'

function checkId(memoryId: string): void {
  const checked = read(memoryIdReader, memoryId)
  if (!checked.ok) throw new InvalidMemoryOperationError('', `memory id ${JSON.stringify(memoryId.slice(0, 40))}: ${checked.problem.rule}`)
}

function rev(options: WriteOptions | undefined): WriteOptions {
  return options?.expectedRev === undefined ? {} : { expectedRev: options.expectedRev }
}

/** The full memory store API over a backend's get/change/subscribe; the same for IndexedDB and the in-memory fallback. */
export function memoryStoreOnBackend(backend: MemoryBackend): MemoryStore {
  const get = async (memoryId: string) => {
    checkId(memoryId)
    return backend.get(memoryId)
  }
  const change: MemoryBackend['change'] = async (memoryId, operation, apply) => {
    checkId(memoryId)
    return backend.change(memoryId, operation, apply)
  }
  const newTask = (text: string, options: AddTaskOptions | undefined): Task => ({ id: options?.id ?? backend.createId(), text, status: 'open' })

  return {
    persistent: backend.persistent,
    get,
    query: async (memoryId, text, options) => {
      const [{ queryMemory }, memory] = await Promise.all([import('./memory-query'), get(memoryId)])
      return queryMemory(memory, text, options)
    },
    update: (memoryId, space, update, options) =>
      change(memoryId, 'memory.update', (memory, now) => updateSpace(memory, space, update as (data: never) => unknown, { ...rev(options), now })),
    createSpace: (memoryId, name, kind, options) =>
      change(memoryId, 'memory.createSpace', (memory, now) =>
        createSpace(memory, name, kind, { now, ...(options?.metadata === undefined ? {} : { metadata: options.metadata }) }),
      ),
    deleteSpace: (memoryId, name, options) =>
      change(memoryId, 'memory.deleteSpace', (memory, now) => deleteSpace(memory, name, { ...rev(options), now })),
    subscribe: (memoryId, listener) => {
      checkId(memoryId)
      return backend.subscribe(memoryId, listener)
    },
    world: {
      get: async (memoryId, key) => worldGet(await get(memoryId), key),
      put: (memoryId, key, value, options) =>
        change(memoryId, 'memory.world.put', (memory, now) =>
          updateSpace(memory, 'world', (data: never) => mapPut(data, key, value), { ...rev(options), now }),
        ),
      delete: (memoryId, key, options) =>
        change(memoryId, 'memory.world.delete', (memory, now) =>
          updateSpace(memory, 'world', (data: never) => mapDelete(data, key), { ...rev(options), now }),
        ),
    },
    tasks: {
      add: (memoryId, text, options) => {
        const task = newTask(text, options)
        return change(memoryId, 'memory.tasks.add', (memory, now) =>
          updateSpace(memory, 'tasks', (data: never) => tasksAdd(data, task), { ...rev(options), now }),
        )
      },
      insert: (memoryId, index, text, options) => {
        const task = newTask(text, options)
        return change(memoryId, 'memory.tasks.insert', (memory, now) =>
          updateSpace(memory, 'tasks', (data: never) => tasksInsert(data, index, task), { ...rev(options), now }),
        )
      },
      complete: (memoryId, taskId, options) =>
        change(memoryId, 'memory.tasks.complete', (memory, now) =>
          updateSpace(memory, 'tasks', (data: never) => tasksComplete(data, taskId), { ...rev(options), now }),
        ),
      remove: (memoryId, taskId, options) =>
        change(memoryId, 'memory.tasks.remove', (memory, now) =>
          updateSpace(memory, 'tasks', (data: never) => tasksRemove(data, taskId), { ...rev(options), now }),
        ),
      reorder: (memoryId, taskIds, options) =>
        change(memoryId, 'memory.tasks.reorder', (memory, now) =>
          updateSpace(memory, 'tasks', (data: never) => tasksReorder(data, taskIds), { ...rev(options), now }),
        ),
      next: async (memoryId) => tasksNext((await get(memoryId)).spaces.tasks.data),
      open: async (memoryId) => tasksOpen((await get(memoryId)).spaces.tasks.data),
    },
  }
}
