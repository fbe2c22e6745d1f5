import type { JsonObject, JsonValue } from '@threadlens/core'
import { expectTypeOf } from 'vitest'
import type { Memory } from '@threadlens/core'
import type { MemoryMatch, Task } from '@threadlens/core/memory'
import type { MemoryStore, SpaceDataOf } from './memory-store'

declare const memory: MemoryStore

// `update` hands each built-in space its own data type, and custom spaces a map or a list.
expectTypeOf<SpaceDataOf<'tasks'>>().toEqualTypeOf<readonly Task[]>()
expectTypeOf<SpaceDataOf<'world'>>().toEqualTypeOf<JsonObject>()
expectTypeOf<SpaceDataOf<'notes'>>().toEqualTypeOf<JsonObject | readonly JsonValue[]>()
expectTypeOf(memory.update('agent', 'tasks', (tasks) => tasks.filter((task) => task.status === 'open'))).toEqualTypeOf<Promise<Memory>>()
expectTypeOf(memory.update).parameter(2).toBeFunction()
expectTypeOf<Memory['spaces']['tasks']['data']>().toEqualTypeOf<readonly Task[]>()
expectTypeOf(memory.query('agent', 'ferry', { topK: 3, spaces: ['world'] })).toEqualTypeOf<Promise<readonly MemoryMatch[]>>()
