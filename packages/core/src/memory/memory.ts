import type { JsonObject, JsonValue } from '../entries/entry'
import { jsonObjectSchema, jsonValueSchema } from '../entries/entry-schema'
import { z } from 'zod/mini'

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

export const spaceNameSchema = z.string().check(
  z.regex(spaceNamePattern, 'space names are 1-64 characters of A-Z a-z 0-9 _ . : -'),
  z.refine((name) => !forbiddenNames.has(name), 'this name is reserved'),
)

export const memoryIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'memory ids are 1-128 characters of A-Z a-z 0-9 _ . : -'))

const revSchema = z.int().check(z.nonnegative())

export const taskSchema: z.ZodMiniType<Task> = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  text: z.string().check(z.maxLength(100_000)),
  status: z.enum(['open', 'done']),
})

export const taskListSchema: z.ZodMiniType<readonly Task[]> = z.array(taskSchema).check(z.superRefine((tasks, context) => {
  const seen = new Set<string>()
  tasks.forEach((task, position) => {
    if (seen.has(task.id)) context.addIssue({ code: 'custom', message: `task id "${task.id}" appears twice`, path: [position, 'id'] })
    seen.add(task.id)
  })
}))

export const mapSpaceSchema: z.ZodMiniType<MapSpace> = z.strictObject({
  kind: z.literal('map'),
  data: jsonObjectSchema,
  rev: revSchema,
  metadata: jsonObjectSchema,
})

export const listSpaceSchema: z.ZodMiniType<ListSpace> = z.strictObject({
  kind: z.literal('list'),
  data: z.array(jsonValueSchema),
  rev: revSchema,
  metadata: jsonObjectSchema,
})

export const taskSpaceSchema: z.ZodMiniType<TaskSpace> = z.strictObject({
  kind: z.literal('list'),
  data: taskListSchema,
  rev: revSchema,
  metadata: jsonObjectSchema,
})

export const spaceSchema: z.ZodMiniType<Space> = z.union([mapSpaceSchema, listSpaceSchema])

export const memorySchema: z.ZodMiniType<Memory> = z.strictObject({
  id: memoryIdSchema,
  rev: revSchema,
  spaces: z.pipe(
    z.unknown().check(
      z.superRefine((value, context) => {
        if (typeof value !== 'object' || value === null) return
        for (const key of Object.keys(value)) {
          if (!spaceNameSchema.safeParse(key).success) context.addIssue({ code: 'custom', message: `space name "${key}" is not allowed`, path: [key] })
        }
      }),
    ),
    z.record(z.string(), spaceSchema).check(
      z.superRefine((spaces, context) => {
        if (!taskSpaceSchema.safeParse(spaces['tasks']).success) context.addIssue({ code: 'custom', message: 'the built-in tasks space is missing or not a task list', path: ['tasks'] })
        if (spaces['world']?.kind !== 'map') context.addIssue({ code: 'custom', message: 'the built-in world space is missing or not a map', path: ['world'] })
      }),
    ),
  ) as unknown as z.ZodMiniType<MemorySpaces>,
  createdAt: z.int().check(z.nonnegative()),
  updatedAt: z.int().check(z.nonnegative()),
})
