import type { JsonObject, JsonValue } from '../entries/entry'
import { InvalidMemoryOperationError, RevisionConflictError } from '../errors/threadlens-error'
import { issuePath } from '../validation/issues'
import { jsonObject, read, type Reader } from '../validation/readers'
import {
  builtinSpaceNames,
  listDataReader,
  spaceNameReader,
  taskListReader,
  type ListSpace,
  type MapSpace,
  type Memory,
  type MemorySpaces,
  type Space,
  type SpaceKind,
  type Task,
} from './memory'

// Pure operations on Memory values: no I/O, no clock, no randomness (time and ids are passed in).
// The store runs them inside one IndexedDB transaction; they are written to move into core as is.

/** A fresh memory: built-in `tasks` and `world`, empty, at rev 0. Not stored until its first write. */
export function createMemory(id: string, now: number): Memory {
  return {
    id,
    rev: 0,
    spaces: {
      tasks: { kind: 'list', data: [], rev: 0, metadata: {} },
      world: { kind: 'map', data: {}, rev: 0, metadata: {} },
    },
    createdAt: now,
    updatedAt: now,
  }
}

export function isBuiltinSpace(name: string): boolean {
  return (builtinSpaceNames as readonly string[]).includes(name)
}

/** The space with this name, or `undefined` (own keys only: `constructor` is not a space). */
export function getSpace(memory: Memory, name: string): Space | undefined {
  return Object.hasOwn(memory.spaces, name) ? memory.spaces[name] : undefined
}

export interface WriteOptions {
  /** The space rev the caller last saw; a different stored rev fails with `RevisionConflictError`. Default: no check. */
  readonly expectedRev?: number
}

function checkRev(memory: Memory, name: string, space: Space | undefined, options: WriteOptions): void {
  if (options.expectedRev === undefined) return
  const actual = space?.rev ?? -1
  if (actual !== options.expectedRev)
    throw new RevisionConflictError({ kind: 'memory-space', memoryId: memory.id, space: name }, options.expectedRev, actual, space)
}

function withSpaces(memory: Memory, spaces: MemorySpaces, now: number): Memory {
  return { ...memory, rev: memory.rev + 1, spaces, updatedAt: Math.max(memory.updatedAt, now) }
}

function checkName(name: string): void {
  const result = read(spaceNameReader, name)
  if (!result.ok) throw new InvalidMemoryOperationError(name, result.problem.rule)
}

function validData(name: string, kind: SpaceKind, data: unknown): JsonObject | readonly JsonValue[] {
  const reader: Reader<JsonObject | readonly JsonValue[]> = name === 'tasks' ? taskListReader : kind === 'map' ? jsonObject : listDataReader
  const result = read(reader, data)
  if (!result.ok) {
    const path = issuePath(result.problem.path)
    throw new InvalidMemoryOperationError(
      name,
      `the new data is not valid ${name === 'tasks' ? 'tasks' : kind === 'map' ? 'map' : 'list'} data${path === '' ? '' : ` at ${path}`}: ${result.problem.rule}`,
    )
  }
  return result.value
}

/** The data a space of this kind holds. */
export type SpaceData<K extends SpaceKind> = K extends 'map' ? JsonObject : readonly JsonValue[]

/**
 * Replaces a space's data with `update(data)`: bumps the container rev, and sets the space's rev
 * to it. `update` must be synchronous and return new data (do not mutate its argument).
 */
export function updateSpace(
  memory: Memory,
  name: string,
  update: (data: never) => unknown,
  options: WriteOptions & { readonly now: number },
): Memory {
  const space = getSpace(memory, name)
  checkRev(memory, name, space, options)
  if (space === undefined) throw new InvalidMemoryOperationError(name, 'no such space; create it first with createSpace(name, "map" | "list")')
  const next = update(space.data as never)
  if (typeof (next as { then?: unknown } | null)?.then === 'function') {
    throw new InvalidMemoryOperationError(
      name,
      'the update function returned a promise; it must be synchronous (it runs inside one storage transaction)',
    )
  }
  const data = validData(name, space.kind, next)
  const rev = memory.rev + 1
  const updated = { ...space, data, rev } as Space
  return withSpaces(memory, { ...memory.spaces, [name]: updated } as MemorySpaces, options.now)
}

/** Adds a custom space. Its rev is the new container rev, so a re-created space never repeats an old rev. */
export function createSpace(
  memory: Memory,
  name: string,
  kind: SpaceKind,
  options: { readonly now: number; readonly metadata?: JsonObject },
): Memory {
  checkName(name)
  if (getSpace(memory, name) !== undefined) throw new InvalidMemoryOperationError(name, 'a space with this name already exists')
  const checked = read(jsonObject, options.metadata ?? {})
  if (!checked.ok)
    throw new InvalidMemoryOperationError(
      name,
      `metadata${checked.problem.path.length === 0 ? '' : `.${issuePath(checked.problem.path)}`}: ${checked.problem.rule}`,
    )
  const metadata = checked.value
  const rev = memory.rev + 1
  const space: Space =
    kind === 'map' ? ({ kind, data: {}, rev, metadata } satisfies MapSpace) : ({ kind, data: [], rev, metadata } satisfies ListSpace)
  return withSpaces(memory, { ...memory.spaces, [name]: space } as MemorySpaces, options.now)
}

/** Removes a custom space. `tasks` and `world` cannot be deleted. */
export function deleteSpace(memory: Memory, name: string, options: WriteOptions & { readonly now: number }): Memory {
  if (isBuiltinSpace(name))
    throw new InvalidMemoryOperationError(name, 'built-in spaces (tasks, world) always exist and cannot be deleted; clear their data instead')
  const space = getSpace(memory, name)
  checkRev(memory, name, space, options)
  if (space === undefined) throw new InvalidMemoryOperationError(name, 'no such space')
  const spaces: Record<string, Space> = { ...memory.spaces }
  delete spaces[name]
  return withSpaces(memory, spaces as MemorySpaces, options.now)
}

// World (map) data helpers: each returns new data.

export function worldGet(memory: Memory, key: string): JsonValue | undefined {
  const data = memory.spaces.world.data
  return Object.hasOwn(data, key) ? data[key] : undefined
}

export function mapPut(data: JsonObject, key: string, value: JsonValue): JsonObject {
  return { ...data, [key]: value }
}

export function mapDelete(data: JsonObject, key: string): JsonObject {
  if (!Object.hasOwn(data, key)) return data
  const copy: Record<string, JsonValue> = { ...data }
  delete copy[key]
  return copy
}

// Task list helpers: each returns a new list.

function taskPosition(tasks: readonly Task[], id: string): number {
  const position = tasks.findIndex((task) => task.id === id)
  if (position < 0) throw new InvalidMemoryOperationError('tasks', `no task with id "${id}"`)
  return position
}

export function tasksAdd(tasks: readonly Task[], task: Task): readonly Task[] {
  return tasksInsert(tasks, tasks.length, task)
}

/** Inserts at `index` (clamped to 0..length). */
export function tasksInsert(tasks: readonly Task[], index: number, task: Task): readonly Task[] {
  if (tasks.some((existing) => existing.id === task.id)) throw new InvalidMemoryOperationError('tasks', `a task with id "${task.id}" already exists`)
  const at = Math.max(0, Math.min(tasks.length, Math.trunc(index)))
  return [...tasks.slice(0, at), task, ...tasks.slice(at)]
}

export function tasksComplete(tasks: readonly Task[], id: string): readonly Task[] {
  const position = taskPosition(tasks, id)
  return tasks.map((task, index) => (index === position ? { ...task, status: 'done' as const } : task))
}

export function tasksRemove(tasks: readonly Task[], id: string): readonly Task[] {
  const position = taskPosition(tasks, id)
  return [...tasks.slice(0, position), ...tasks.slice(position + 1)]
}

/** Puts the tasks in the order of `ids`, which must name every task exactly once. */
export function tasksReorder(tasks: readonly Task[], ids: readonly string[]): readonly Task[] {
  if (ids.length !== tasks.length || new Set(ids).size !== ids.length) {
    throw new InvalidMemoryOperationError('tasks', `reorder needs every task id exactly once (${tasks.length} tasks, got ${ids.length} ids)`)
  }
  return ids.map((id) => tasks[taskPosition(tasks, id)] as Task)
}

/** The first open task, or `undefined`. */
export function tasksNext(tasks: readonly Task[]): Task | undefined {
  return tasks.find((task) => task.status === 'open')
}

/** Every open task, in order. */
export function tasksOpen(tasks: readonly Task[]): readonly Task[] {
  return tasks.filter((task) => task.status === 'open')
}
