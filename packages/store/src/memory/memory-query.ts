// Memory search, loaded with the first `memory.query()`: an app that never searches its memory does not download it.
export { queryMemory } from '@threadlens/core/memory'
