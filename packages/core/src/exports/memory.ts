/** @threadlens/core/memory: an agent's memory as data, and the pure operations on its spaces (the memory store applies them). */

export type { BuiltinSpaceName, ListSpace, MapSpace, MemorySpaces, Space, SpaceKind, Task, TaskSpace, TaskStatus } from '../memory/memory'
export { builtinSpaceNames } from '../memory/memory'
export type { SpaceData, WriteOptions } from '../memory/memory-operations'
export type { RenderedMemory } from '../memory/render-memory'
export { renderMemory } from '../memory/render-memory'
export type { MemoryPolicy } from '../memory/request-memory'
export { requestMemoryText } from '../memory/request-memory'
export type { MemoryMatch, MemoryQueryOptions } from '../memory/query-memory'
export { queryMemory } from '../memory/query-memory'
export type { MemoryProjector } from '../memory/memory-projector'
export { applyMemoryProjectors, summaryToWorld, toolResultToWorld } from '../memory/memory-projector'
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
} from '../memory/memory-operations'
