/** Timing summary of repeated runs, in milliseconds. */
export interface Timing {
  readonly runs: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly minMs: number
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (fraction: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number
  const middle = sorted.length / 2
  const median = sorted.length % 2 === 1 ? (sorted[Math.floor(middle)] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
  return { runs: sorted.length, medianMs: median, p95Ms: at(0.95), minMs: sorted[0] as number }
}

export interface RepeatOptions {
  /** Untimed runs first, so the JIT has compiled the hot paths. */
  readonly warmup: number
  readonly minRuns: number
  readonly maxRuns: number
  /** Stop adding runs past `minRuns` once this much time has been spent timing. */
  readonly maxTotalMs: number
}

/**
 * Times `run` repeatedly. `prepare` runs before each timed call, outside the timing
 * (e.g. to make a fresh token counter for a cold run).
 */
export function repeat<TState>(options: RepeatOptions, prepare: () => TState, run: (state: TState) => void): Timing {
  for (let index = 0; index < options.warmup; index++) run(prepare())
  const samples: number[] = []
  let spent = 0
  while (samples.length < options.maxRuns && (samples.length < options.minRuns || spent < options.maxTotalMs)) {
    const state = prepare()
    const start = performance.now()
    run(state)
    const elapsed = performance.now() - start
    samples.push(elapsed)
    spent += elapsed
  }
  return summarize(samples)
}

/** Milliseconds for tables: 3 significant digits, µs below a millisecond. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`
  if (ms < 1000) return `${ms.toPrecision(3)} ms`
  return `${(ms / 1000).toPrecision(3)} s`
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–'
  return ratio >= 100 ? `${Math.round(ratio).toLocaleString('en-US')}×` : `${ratio.toPrecision(3)}×`
}
