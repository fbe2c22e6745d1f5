import { Worker } from 'node:worker_threads'
import type { ThreadShape } from './generate-thread'
import { summarize, type Timing } from './measure'

export type TrimPhase = 'warmup' | 'cold' | 'fill' | 'warm' | 'start-on-human' | 'sweep'

export interface TrimWorkerInput {
  readonly size: number
  readonly budget: number
  readonly warmup: number
  readonly coldRuns: number
  readonly warmRuns: number
  /** Also run once with `startOn: 'human'` to report its output. */
  readonly startOnHuman: boolean
  /** Also trim before every user turn of the thread (warm) and count the outputs that orphan a tool message. */
  readonly orphanSweep: boolean
}

/** What an output holds: messages, tokens by threadlens's accounting, orphaned tool messages/calls. */
export interface OutputStats {
  readonly messages: number
  readonly tokens: number
  readonly orphans: number
}

/** Projections made before each user turn of a thread, and how many of them orphan tool messages. */
export interface SweepStats {
  readonly projections: number
  readonly withOrphans: number
  readonly orphans: number
}

export type TrimWorkerMessage =
  | { readonly type: 'ready'; readonly prepMs: number; readonly messages: number; readonly shape: ThreadShape }
  | { readonly type: 'call-start'; readonly phase: TrimPhase }
  | { readonly type: 'call-end'; readonly phase: TrimPhase; readonly ms: number; readonly output: OutputStats }
  | { readonly type: 'sweep'; readonly sweep: SweepStats }
  | { readonly type: 'done' }

export interface TrimResult {
  readonly size: number
  readonly budget: number
  readonly cold: Timing | undefined
  readonly warm: Timing | undefined
  /** Set when a call hit the time limit and the worker was terminated. */
  readonly stopped: { readonly phase: TrimPhase; readonly limitMs: number } | undefined
  readonly output: OutputStats | undefined
  readonly startOnHumanOutput: OutputStats | undefined
  readonly sweep: SweepStats | undefined
  readonly shape: ThreadShape | undefined
}

// The worker runs TypeScript too. The tsx CLI registers its loader in the main thread only, and on
// Node 20 `--import tsx` in a worker's execArgv does not reach the worker's entry module, so a
// small script registers tsx's hooks inside the worker first, then imports the entry.
const workerBootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./langchain-worker.ts', import.meta.url).href)}) })`

/** Thread building and message conversion in the worker are not timed, but must not hang either. */
const PREPARE_LIMIT_MS = 180_000

/**
 * Runs trimMessages in a worker; any single call that runs past `limitMs` terminates the worker and
 * is reported as stopped, with whatever runs had finished before it.
 */
export function runTrimInWorker(input: TrimWorkerInput, limitMs: number): Promise<TrimResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerBootstrap, { eval: true, workerData: input })
    const cold: number[] = []
    const warm: number[] = []
    let output: OutputStats | undefined
    let startOnHumanOutput: OutputStats | undefined
    let shape: ThreadShape | undefined
    let sweep: SweepStats | undefined
    let settled = false
    let timer: ReturnType<typeof setTimeout> | undefined

    const finish = (stopped: TrimResult['stopped']): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        size: input.size,
        budget: input.budget,
        cold: cold.length === 0 ? undefined : summarize(cold),
        warm: warm.length === 0 ? undefined : summarize(warm),
        stopped,
        output,
        startOnHumanOutput,
        sweep,
        shape,
      })
    }
    const watch = (ms: number, onTimeout: () => void): void => {
      clearTimeout(timer)
      timer = setTimeout(onTimeout, ms)
    }

    watch(PREPARE_LIMIT_MS, () => {
      settled = true
      void worker.terminate()
      reject(new Error(`[threadlens] the LangChain worker took over ${PREPARE_LIMIT_MS / 1000} s to build its ${input.size}-entry thread`))
    })
    worker.on('message', (message: TrimWorkerMessage) => {
      switch (message.type) {
        case 'ready':
          shape = message.shape
          clearTimeout(timer)
          return
        case 'call-start':
          watch(limitMs, () => {
            finish({ phase: message.phase, limitMs })
            void worker.terminate()
          })
          return
        case 'call-end':
          clearTimeout(timer)
          if (message.phase === 'cold') cold.push(message.ms)
          if (message.phase === 'warm') warm.push(message.ms)
          if (message.phase === 'start-on-human') startOnHumanOutput = message.output
          else if (message.phase !== 'sweep') output ??= message.output
          return
        case 'sweep':
          sweep = message.sweep
          return
        case 'done':
          finish(undefined)
          void worker.terminate()
          return
      }
    })
    worker.on('error', (error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(error)
    })
    worker.on('exit', (code) => {
      if (!settled) {
        settled = true
        clearTimeout(timer)
        reject(new Error(`[threadlens] the LangChain worker exited early with code ${code}`))
      }
    })
  })
}
