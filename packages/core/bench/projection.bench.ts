import { definePolicy, project, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter } from '../src/index'
import { buildThread, continuationInputs, shapeOf, SYSTEM_PROMPT, type ThreadShape } from './generate-thread'
import { runTrimInWorker, type OutputStats, type SweepStats, type TrimResult, type TrimWorkerInput } from './langchain-run'
import { formatMs, formatRatio, repeat, summarize, type Timing } from './measure'
import { coldCounter } from './o200k'
import { countOrphans, projectedPairing } from './orphans'
import { machine, table, writeBenchResults } from './report'

// `pnpm bench`: times the projection on generated threads and sets LangChain's trimMessages beside it.
// Prints tables and writes the same figures to bench-results/core.json. Not a test: nothing here fails
// on a slow figure.

const SIZES = [1_000, 10_000, 100_000] as const
const BUDGETS = [
  { label: '8k', maxInputTokens: 8_192, reserveOutputTokens: 1_024 },
  { label: '128k', maxInputTokens: 131_072, reserveOutputTokens: 8_192 },
] as const
/** Per trimMessages call; past it the worker is terminated and the figure printed as a lower bound. */
const LIMIT_MS = Number(process.env.THREADLENS_BENCH_LIMIT_S ?? 60) * 1000
const APPENDS = 200
/** trimMessages takes ~1 s per call at 10k, and minutes at 100k: fewer runs as threads grow. */
const TRIM_RUNS: Record<(typeof SIZES)[number], Omit<TrimWorkerInput, 'size' | 'budget'>> = {
  1_000: { warmup: 2, coldRuns: 10, warmRuns: 10, startOnHuman: true, orphanSweep: true },
  10_000: { warmup: 0, coldRuns: 3, warmRuns: 5, startOnHuman: true, orphanSweep: false },
  100_000: { warmup: 0, coldRuns: 1, warmRuns: 1, startOnHuman: false, orphanSweep: false },
}

interface ProjectionFigures {
  readonly size: number
  readonly budget: string
  readonly inputBudget: number
  readonly cold: Timing
  readonly warm: Timing
  readonly output: OutputStats
  sweep?: SweepStats
  appendThenProject?: AppendFigures
}

interface AppendFigures {
  readonly append: Timing
  /** Tokenizing the new entry (what a cold counter would pay for every entry in the window). */
  readonly count: Timing
  readonly project: Timing
  readonly countAndProject: Timing
  /** Messages in the last projection (the appended turns are plain messages, so the window's make-up shifts). */
  readonly messages: number
}

const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`)

function outputStats(result: ProjectionResult): OutputStats {
  return { messages: result.messages.length, tokens: result.meta.tokens.total, orphans: countOrphans(result.messages.map(projectedPairing)) }
}

function measureProjection(thread: Thread, policy: ContextPolicy): { cold: Timing; warm: Timing; output: OutputStats; warmCounter: TokenCounter } {
  const cold = repeat({ warmup: 2, minRuns: 5, maxRuns: 30, maxTotalMs: 2_000 }, coldCounter, (counter) => {
    project({ thread, policy, counter })
  })
  const warmCounter = coldCounter()
  const first = project({ thread, policy, counter: warmCounter })
  const warm = repeat(
    { warmup: 50, minRuns: 200, maxRuns: 20_000, maxTotalMs: 500 },
    () => warmCounter,
    (counter) => {
      project({ thread, policy, counter })
    },
  )
  return { cold, warm, output: outputStats(first), warmCounter }
}

/** Projects the thread as it stood before each of its user turns; counts outputs that orphan a tool message. */
function sweepProjection(thread: Thread, policy: ContextPolicy, counter: TokenCounter): SweepStats {
  let projections = 0
  let withOrphans = 0
  let orphans = 0
  for (const entry of thread.entries) {
    if (entry.kind !== 'message' || entry.payload.role !== 'user') continue
    const found = countOrphans(project({ thread: thread.entries.slice(0, entry.seq + 1), policy, counter }).messages.map(projectedPairing))
    projections++
    if (found > 0) withOrphans++
    orphans += found
  }
  return { projections, withOrphans, orphans }
}

/**
 * Appends one entry (alternately the assistant's reply and the user's next ask, drawn from the same
 * generator so the window keeps its usual make-up), counts it, then projects with the warm counter.
 * Counting the new entry is split out: it is the one thing a re-projection has not seen before.
 */
function measureAppend(thread: Thread, policy: ContextPolicy, counter: TokenCounter): AppendFigures {
  const samples = { append: [] as number[], count: [] as number[], project: [] as number[], total: [] as number[] }
  const warmupRounds = 20
  let messages = 0
  for (const input of continuationInputs(APPENDS + warmupRounds)) {
    const appendStart = performance.now()
    const entry = thread.append(input)
    const countStart = performance.now()
    counter.countEntry(entry)
    const projectStart = performance.now()
    messages = project({ thread, policy, counter }).messages.length
    const end = performance.now()
    samples.append.push(countStart - appendStart)
    samples.count.push(projectStart - countStart)
    samples.project.push(end - projectStart)
    samples.total.push(end - countStart)
  }
  const timing = (list: number[]): Timing => summarize(list.slice(warmupRounds))
  return {
    append: timing(samples.append),
    count: timing(samples.count),
    project: timing(samples.project),
    countAndProject: timing(samples.total),
    messages,
  }
}

const sizeLabel = (size: number): string => (size >= 1000 ? `${size / 1000}k` : String(size))
/** Whether a call of this very phase hit the limit (a stop in `cold` or `fill` leaves warm not reached). */
const stoppedIn = (result: TrimResult, phase: 'cold' | 'warm'): boolean => result.stopped?.phase === phase
const trimTime = (result: TrimResult, phase: 'cold' | 'warm'): string => {
  const timing = result[phase]
  if (timing !== undefined) return formatMs(timing.medianMs)
  if (result.stopped === undefined) return 'not run'
  return stoppedIn(result, phase)
    ? `> ${result.stopped.limitMs / 1000} s (stopped)`
    : `not reached (${result.stopped.phase} call > ${result.stopped.limitMs / 1000} s)`
}

async function main(): Promise<void> {
  const host = machine()
  const started = performance.now()
  console.log(`threadlens core bench — ${host.date}`)
  console.log(`machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGigabytes} GB, ${host.platform}, Node ${host.node}`)
  console.log(`tokenizer: gpt-tokenizer o200k_base (both sides); times are medians of repeated runs after warmup; µs = microseconds`)

  const shapes: (ThreadShape & { buildMs: number })[] = []
  const projections: ProjectionFigures[] = []
  const trims: TrimResult[] = []

  for (const size of SIZES) {
    log(`${sizeLabel(size)} entries: building the thread`)
    const buildStart = performance.now()
    const thread = buildThread(size)
    const shape = { ...shapeOf(thread), buildMs: performance.now() - buildStart }
    shapes.push(shape)

    const figures: { figure: ProjectionFigures; policy: ContextPolicy; counter: TokenCounter }[] = []
    for (const budget of BUDGETS) {
      log(`${sizeLabel(size)} entries, ${budget.label} budget: project() cold and warm`)
      const policy = definePolicy({
        maxInputTokens: budget.maxInputTokens,
        reserveOutputTokens: budget.reserveOutputTokens,
        systemPrompt: SYSTEM_PROMPT,
      })
      const measured = measureProjection(thread, policy)
      const figure: ProjectionFigures = {
        size,
        budget: budget.label,
        inputBudget: budget.maxInputTokens - budget.reserveOutputTokens,
        cold: measured.cold,
        warm: measured.warm,
        output: measured.output,
      }
      if (TRIM_RUNS[size].orphanSweep) figure.sweep = sweepProjection(thread, policy, measured.warmCounter)
      figures.push({ figure, policy, counter: measured.warmCounter })
      projections.push(figure)
    }

    // LangChain runs on its own copy of the thread (same generator, same seed), in a worker.
    for (const budget of BUDGETS) {
      const runs = TRIM_RUNS[size]
      log(`${sizeLabel(size)} entries, ${budget.label} budget: trimMessages in a worker (limit ${LIMIT_MS / 1000} s per call)`)
      const result = await runTrimInWorker({ size, budget: budget.maxInputTokens - budget.reserveOutputTokens, ...runs }, LIMIT_MS)
      if (result.shape !== undefined && JSON.stringify(result.shape) !== JSON.stringify(shapeOf(thread))) {
        throw new Error(`[threadlens] the worker built a different ${size}-entry thread: the generator is not deterministic`)
      }
      trims.push(result)
    }

    // Last, because appending changes the thread.
    for (const { figure, policy, counter } of figures) {
      log(`${sizeLabel(size)} entries, ${figure.budget} budget: append one entry, then project()`)
      figure.appendThenProject = measureAppend(thread, policy, counter)
    }
  }

  console.log(
    table(
      'Threads (deterministic generator; ~1 in 5 model calls makes 1–3 parallel tool calls)',
      ['thread', 'entries', 'messages', 'tool calls', 'tool results', 'text (M chars)', 'build'],
      shapes.map((shape) => [
        sizeLabel(shape.entries),
        shape.entries.toLocaleString('en-US'),
        shape.messages.toLocaleString('en-US'),
        shape.toolCalls.toLocaleString('en-US'),
        shape.toolResults.toLocaleString('en-US'),
        shape.textMegabytes.toFixed(1),
        formatMs(shape.buildMs),
      ]),
    ),
  )

  console.log(
    table(
      'threadlens project(): one call (cold = fresh counter, nothing counted; warm = same counter after one projection)',
      ['thread', 'budget (input)', 'cold median', 'cold p95', 'warm median', 'warm p95', 'runs c/w', 'messages', 'tokens', 'orphans'],
      projections.map((figure) => [
        sizeLabel(figure.size),
        `${figure.budget} (${figure.inputBudget.toLocaleString('en-US')})`,
        formatMs(figure.cold.medianMs),
        formatMs(figure.cold.p95Ms),
        formatMs(figure.warm.medianMs),
        formatMs(figure.warm.p95Ms),
        `${figure.cold.runs}/${figure.warm.runs}`,
        String(figure.output.messages),
        figure.output.tokens.toLocaleString('en-US'),
        String(figure.output.orphans),
      ]),
    ),
  )

  console.log(
    table(
      `threadlens: append one entry, count it, project() with the warm counter (${APPENDS} rounds, medians)`,
      [
        'thread',
        'budget',
        'append',
        'count new entry',
        'project',
        'project p95',
        'count + project',
        'messages',
        'warm project (table above)',
        'its messages',
      ],
      projections.map((figure) => {
        const appended = figure.appendThenProject
        const cell = (timing: Timing | undefined): string => (timing === undefined ? '–' : formatMs(timing.medianMs))
        return [
          sizeLabel(figure.size),
          figure.budget,
          cell(appended?.append),
          cell(appended?.count),
          cell(appended?.project),
          appended === undefined ? '–' : formatMs(appended.project.p95Ms),
          cell(appended?.countAndProject),
          appended === undefined ? '–' : String(appended.messages),
          formatMs(figure.warm.medianMs),
          String(figure.output.messages),
        ]
      }),
    ),
  )

  const comparisons = trims.map((trim) => {
    const ours = projections.find((figure) => figure.size === trim.size && figure.inputBudget === trim.budget) as ProjectionFigures
    const ratio = (phase: 'cold' | 'warm'): number | undefined => {
      const theirs = trim[phase]
      if (theirs !== undefined) return theirs.medianMs / ours[phase].medianMs
      // Stopped in this phase: the limit is a lower bound on their time, so the ratio is one too.
      if (trim.stopped !== undefined && stoppedIn(trim, phase)) return trim.stopped.limitMs / ours[phase].medianMs
      return undefined
    }
    return { trim, ours, coldRatio: ratio('cold'), warmRatio: ratio('warm') }
  })
  const ratioText = (value: number | undefined, stopped: boolean): string =>
    value === undefined ? '–' : `${stopped ? '> ' : ''}${formatRatio(value)}`
  console.log(
    table(
      'LangChain trimMessages (strategy last, includeSystem, no partial; cached per-message counter) vs threadlens project(), same messages and counter',
      [
        'thread',
        'budget',
        'trim cold',
        'ours cold',
        'ratio',
        'trim warm',
        'ours warm',
        'ratio',
        'kept trim/ours',
        'tokens trim/ours',
        'orphans trim/ours',
        'orphans startOn human',
      ],
      comparisons.map(({ trim, ours, coldRatio, warmRatio }) => [
        sizeLabel(trim.size),
        ours.budget,
        trimTime(trim, 'cold'),
        formatMs(ours.cold.medianMs),
        ratioText(coldRatio, stoppedIn(trim, 'cold')),
        trimTime(trim, 'warm'),
        formatMs(ours.warm.medianMs),
        ratioText(warmRatio, stoppedIn(trim, 'warm')),
        `${trim.output?.messages ?? '–'}/${ours.output.messages}`,
        `${trim.output?.tokens.toLocaleString('en-US') ?? '–'}/${ours.output.tokens.toLocaleString('en-US')}`,
        `${trim.output?.orphans ?? '–'}/${ours.output.orphans}`,
        trim.startOnHumanOutput === undefined ? '–' : `${trim.startOnHumanOutput.orphans} (kept ${trim.startOnHumanOutput.messages})`,
      ]),
    ),
  )
  console.log('ratio = trimMessages median / threadlens median; kept counts include the system prompt.')

  const sweeps = comparisons.filter(({ trim, ours }) => trim.sweep !== undefined && ours.sweep !== undefined)
  if (sweeps.length > 0) {
    console.log(
      table(
        'Orphans over many cuts: the thread projected before each of its user turns (trimMessages as above, no startOn)',
        ['thread', 'budget', 'projections', 'trim: outputs with orphans', 'trim: orphans', 'ours: outputs with orphans', 'ours: orphans'],
        sweeps.map(({ trim, ours }) => {
          const theirs = trim.sweep as SweepStats
          const mine = ours.sweep as SweepStats
          return [
            sizeLabel(trim.size),
            ours.budget,
            String(theirs.projections),
            `${theirs.withOrphans} (${((100 * theirs.withOrphans) / Math.max(1, theirs.projections)).toFixed(0)}%)`,
            String(theirs.orphans),
            `${mine.withOrphans} (${((100 * mine.withOrphans) / Math.max(1, mine.projections)).toFixed(0)}%)`,
            String(mine.orphans),
          ]
        }),
      ),
    )
  }

  const warm100k = projections.find((figure) => figure.size === 100_000 && figure.budget === '8k') as ProjectionFigures
  const goals = [
    {
      goal: 'warm project(), 100k entries, 8k budget: well under 1 ms',
      measured: formatMs(warm100k.warm.medianMs),
      met: warm100k.warm.medianMs < 1,
    },
    ...comparisons
      .filter(({ trim }) => trim.size === 10_000)
      .map(({ ours, warmRatio, trim }) => ({
        goal: `warm, 10k entries, ${ours.budget} budget: ≥ 1,000× faster than trimMessages`,
        measured: ratioText(warmRatio, stoppedIn(trim, 'warm')),
        met: warmRatio !== undefined && warmRatio >= 1000,
      })),
  ]
  console.log(
    table(
      'Goals from the issue',
      ['goal', 'measured', 'met'],
      goals.map((goal) => [goal.goal, goal.measured, goal.met ? 'yes' : 'NO']),
    ),
  )

  const json = {
    machine: host,
    units: { time: 'ms', tokens: 'o200k_base tokens' },
    limitPerTrimCallMs: LIMIT_MS,
    threads: shapes,
    projection: projections,
    trimMessages: comparisons.map(({ trim, coldRatio, warmRatio }) => ({
      ...trim,
      coldRatio,
      warmRatio,
      coldRatioIsLowerBound: stoppedIn(trim, 'cold'),
      warmRatioIsLowerBound: stoppedIn(trim, 'warm'),
    })),
    goals,
  }
  writeBenchResults('core.json', started, json)
}

await main()
