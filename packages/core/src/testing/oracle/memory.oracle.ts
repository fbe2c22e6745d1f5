// TEST ONLY: the zod schemas of memory, the oracle of the hand-written readers in memory/memory.ts.
import { z } from 'zod/mini'
import { jsonObjectSchema, jsonValueSchema } from './entry-schema.oracle'
import { spaceNamePattern, type ListSpace, type MapSpace, type Memory, type MemorySpaces, type Space, type Task, type TaskSpace } from '../../memory/memory'

const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype'])

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
