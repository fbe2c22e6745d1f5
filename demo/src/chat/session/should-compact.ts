import { decideCompaction, type ContextPolicy, type ProjectionResult } from '@threadlens/core'

/**
 * Whether to summarize before the next call: core's `decideCompaction`, plus history that a
 * cache-friendly window left out with no summary covering it. Core does not count `cache-window`
 * drops as dropped history (so `needsSummary` stays false and the session's own check never
 * compacts); every preset is cache-friendly, so without this a long thread would just lose its
 * start from the context.
 */
export function shouldCompact(result: ProjectionResult, policy: ContextPolicy): boolean {
  if (decideCompaction(result, policy).action === 'compact') return true
  return result.meta.dropped.some((range) => range.reason === 'cache-window')
}
