/**
 * The first position in `low..high - 1` at which `reached` holds, where it holds from some position
 * on (ascending data: running totals, sorted seqs); `high` when it never does. A binary search.
 */
export function firstWhere(low: number, high: number, reached: (position: number) => boolean): number {
  while (low < high) {
    const middle = (low + high) >>> 1
    if (reached(middle)) high = middle
    else low = middle + 1
  }
  return low
}
