import type { JsonObject, JsonValue } from '../entries/entry'
import {
  array,
  fail,
  flag,
  int,
  jsonObject,
  jsonValue,
  object,
  oneOf,
  read,
  record,
  string,
  union,
  type At,
  type Reader,
} from '../validation/readers'

// Memory is plain JSON: the store persists it, the projector renders it, nothing here does I/O.

export type TaskStatus = 'open' | 'done'

/** One item of the built-in `tasks` list. */
export type Task = { readonly id: string; readonly text: string; readonly status: TaskStatus }

/** A space holding a map of JSON values (the built-in `world` is one). */
export type MapSpace = {
  readonly kind: 'map'
  readonly data: JsonObject
  /** The container rev of this space's last write (0 until the first): it only ever grows. */
  readonly rev: number
  readonly metadata: JsonObject
}

/** A space holding an ordered list of JSON values. */
export type ListSpace = {
  readonly kind: 'list'
  readonly data: readonly JsonValue[]
  readonly rev: number
  readonly metadata: JsonObject
}

/** The built-in `tasks` space: a list of tasks. */
export type TaskSpace = {
  readonly kind: 'list'
  readonly data: readonly Task[]
  readonly rev: number
  readonly metadata: JsonObject
}

export type Space = MapSpace | ListSpace
export type SpaceKind = Space['kind']

/** `tasks` and `world` always exist; other names are custom spaces. */
export type MemorySpaces = { readonly tasks: TaskSpace; readonly world: MapSpace; readonly [name: string]: Space }

/** What an agent believes and intends now: named, revisioned spaces. Mutable only through revisioned writes. */
export interface Memory {
  readonly id: string
  /** Grows by one on every write to any space. */
  readonly rev: number
  readonly spaces: MemorySpaces
  readonly createdAt: number
  readonly updatedAt: number
}

export const builtinSpaceNames = ['tasks', 'world'] as const
export type BuiltinSpaceName = (typeof builtinSpaceNames)[number]

const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype'])
export const spaceNamePattern = /^[A-Za-z0-9_.:-]{1,64}$/

/** A space name: 1-64 characters of A-Z a-z 0-9 _ . : -, and not a reserved name. */
const spaceNameText = string({ pattern: spaceNamePattern, patternRule: 'space names are 1-64 characters of A-Z a-z 0-9 _ . : -' })

export const spaceNameReader: Reader<string> = (value, at) => {
  const name = spaceNameText(value, at)
  if (forbiddenNames.has(name)) flag(at, 'this name is reserved')
  return name
}

export const memoryIdReader: Reader<string> = string({
  pattern: /^[A-Za-z0-9_.:-]{1,128}$/,
  patternRule: 'memory ids are 1-128 characters of A-Z a-z 0-9 _ . : -',
})

const rev = int({ min: 0 })

export const taskReader: Reader<Task> = object<Task>({
  id: string({ min: 1, max: 128 }),
  text: string({ max: 100_000 }),
  status: oneOf(['open', 'done']),
})

const tasks = array(taskReader)

/** The `tasks` list: tasks with distinct ids. */
export const taskListReader: Reader<readonly Task[]> = (value, at) => {
  const list = tasks(value, at)
  const seen = new Set<string>()
  list.forEach((task, position) => {
    if (seen.has(task.id)) flag({ parent: { parent: at, key: position }, key: 'id' }, `task id "${task.id}" appears twice`)
    seen.add(task.id)
  })
  return list
}

export const listDataReader: Reader<readonly JsonValue[]> = array(jsonValue)

const mapSpace = object<MapSpace>({ kind: oneOf(['map']), data: jsonObject, rev, metadata: jsonObject })
const listSpace = object<ListSpace>({ kind: oneOf(['list']), data: listDataReader, rev, metadata: jsonObject })
const taskSpace = object<TaskSpace>({ kind: oneOf(['list']), data: taskListReader, rev, metadata: jsonObject })

export const spaceReader: Reader<Space> = union<Space>([mapSpace, listSpace])

const spaceRecord = record(string(), spaceReader)

function readSpaces(value: unknown, at: At | null): MemorySpaces {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) if (!read(spaceNameReader, key).ok) fail({ parent: at, key }, `space name "${key}" is not allowed`)
  }
  const spaces = spaceRecord(value, at)
  if (!read(taskSpace, spaces['tasks']).ok) flag({ parent: at, key: 'tasks' }, 'the built-in tasks space is missing or not a task list')
  if (spaces['world']?.kind !== 'map') flag({ parent: at, key: 'world' }, 'the built-in world space is missing or not a map')
  return spaces as MemorySpaces
}

/** A whole memory, as the store keeps it. */
export const memoryReader: Reader<Memory> = object<Memory>({ id: memoryIdReader, rev, spaces: readSpaces, createdAt: rev, updatedAt: rev })
