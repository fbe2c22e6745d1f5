/**
 * The oldest seq the newest `turns` turns start at: a turn starts at a user message, and a pending
 * user message opens a turn of its own. `undefined` turns means no limit (the visible start);
 * zero turns left for history means none (+∞). Used for the `maxTurns` window, the protected zone
 * of the last `keepLastTurns` turns, and where a summary must stop.
 */
export function turnWindowFloor(maxTurns: number | undefined, userSeqs: readonly number[], visibleFrom: number, pendingHasUser: boolean): number {
  if (maxTurns === undefined) return visibleFrom
  const historyTurns = pendingHasUser ? maxTurns - 1 : maxTurns
  if (historyTurns <= 0) return Number.POSITIVE_INFINITY
  const start = userSeqs[userSeqs.length - historyTurns]
  return start === undefined ? visibleFrom : Math.max(visibleFrom, start)
}
