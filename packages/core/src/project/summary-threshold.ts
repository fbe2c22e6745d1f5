/**
 * The one rule for "this projection needs a summary" by size, behind both `meta.needsSummary`
 * (`over-threshold`) and `decideCompaction` (`over-soft-threshold`), so the panel never says a
 * summary is needed while the session sees no reason to compact. Only conversation content can be
 * summarized: the system prompt and tool schemas (`fixedTokens`) come off the budget first, and the
 * threshold is `ratio` of the room that leaves.
 */
export function summaryThreshold(inputBudget: number, fixedTokens: number, ratio: number): number {
  return Math.floor(ratio * (inputBudget - fixedTokens))
}
