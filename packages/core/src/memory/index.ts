/** @threadlens/core/memory: an agent's memory as data, and the pure operations on its spaces (the memory store applies them). */

export type { BuiltinSpaceName, ListSpace, MapSpace, MemorySpaces, Space, SpaceKind, Task, TaskSpace, TaskStatus } from './memory'
export { builtinSpaceNames } from './memory'
export type { SpaceData, WriteOptions } from './memory-operations'
export type { RenderedMemory } from './render-memory'
export { renderMemory } from './render-memory'
export type { MemoryPolicy } from './request-memory'
export { requestMemoryText } from './request-memory'
export type { MemoryMatch, MemoryQueryOptions } from './query-memory'
export { queryMemory } from './query-memory'
export type { MemoryProjector } from './memory-projector'
export { applyMemoryProjectors, summaryToWorld, toolResultToWorld } from './memory-projector'
// Repeated on purpose: packages/store/src/memory/memory-store-on-backend.ts imports most of these names (this list exports them).
export {
  createMemory,
  createSpace,
  deleteSpace,
  getSpace,
  isBuiltinSpace,
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
} from './memory-operations'
