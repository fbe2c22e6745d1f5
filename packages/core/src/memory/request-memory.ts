import type { ContextPolicy } from '../policy/policy'
import type { TokenCounter } from '../tokens/token-counter'
import type { Memory } from './memory'
import { renderMemory, type RenderedMemory } from './render-memory'

/** The policy fields that say how a request carries memory. */
export type MemoryPolicy = Pick<ContextPolicy, 'memorySpaces' | 'memoryMaxTokens'>

/**
 * A `Memory` as `policy` has a request carry it: its `policy.memorySpaces`, in that order, within
 * `policy.memoryMaxTokens` (see `renderMemory`). The one place those two fields are read:
 * `project()`'s memory segment, a session's calls and an app's next-call projection all come here.
 */
export function renderPolicyMemory(memory: Memory, policy: MemoryPolicy, counter: TokenCounter): RenderedMemory {
  return renderMemory(memory, { spaces: policy.memorySpaces, maxTokens: policy.memoryMaxTokens, counter })
}

/**
 * The text of a request's memory segment: a `Memory` rendered under `policy` (`renderPolicyMemory`),
 * text as it is, `''` for none. What `project({ memory })` puts in the segment, before the budget
 * decides whether it fits.
 */
export function requestMemoryText(memory: string | Memory | undefined, policy: MemoryPolicy, counter: TokenCounter): string {
  if (memory === undefined) return ''
  return typeof memory === 'string' ? memory : renderPolicyMemory(memory, policy, counter).text
}
