import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { definePolicy, project, type Thread } from '../src/index'
import { createRecallIndex } from '../src/recall/index'
import { buildThread, continuationInputs, SYSTEM_PROMPT, TextSource } from './generate-thread'
import { formatMs, summarize, type Timing } from './measure'
import { coldCounter } from './o200k'
import { machine, table } from './report'

// `pnpm bench`: what recall costs on big threads (Node): building the index, keeping it up to date
// as entries are appended, and a projection with recall against the same projection without it.
// Prints a table and writes bench-results/recall.json. Not a test: nothing here fails on a figure.

const SIZES = [1_000, 10_000] as const
const APPENDS = 500
const QUERIES = 200
const POLICY = { maxInputTokens: 16_384, reserveOutputTokens: 2_048, systemPrompt: SYSTEM_PROMPT } as const

const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`)

interface SizeFigures {
  readonly entries: number
  readonly buildMs: number
  readonly indexed: number
  readonly appendIndex: Timing
  readonly projectWithout: Timing
  readonly projectWithRecall: Timing
  readonly recallTokens: number
}

function timeEach(count: number, run: (position: number) => void): Timing {
  const samples: number[] = []
  for (let position = 0; position < count; position++) {
    const start = performance.now()
    run(position)
    samples.push(performance.now() - start)
  }
  return summarize(samples)
}

function measureSize(size: number): SizeFigures {
  const thread: Thread = buildThread(size)
  const counter = coldCounter()
  const index = createRecallIndex()
  const buildStart = performance.now()
  index.sync(thread.entries)
  const buildMs = performance.now() - buildStart
  // One entry at a time, as a chat appends: each sync indexes only what is new.
  const more = continuationInputs(APPENDS)
  const appendIndex = timeEach(APPENDS, (position) => {
    thread.append(more[position] as never)
    index.sync(thread.entries)
  })
  const text = new TextSource(size)
  const questions = Array.from({ length: QUERIES }, () => text.sentence())
  const plain = definePolicy(POLICY)
  const recalling = definePolicy({ ...POLICY, recall: {} })
  // Warm: the counter has seen the thread, the index is built; each question is a new pending message.
  for (const question of questions.slice(0, 20))
    project({ thread, policy: recalling, counter, pending: [{ role: 'user', content: question }], recall: index })
  const projectWithout = timeEach(QUERIES, (position) =>
    project({ thread, policy: plain, counter, pending: [{ role: 'user', content: questions[position] as string }] }),
  )
  let recallTokens = 0
  const projectWithRecall = timeEach(QUERIES, (position) => {
    recallTokens += project({
      thread,
      policy: recalling,
      counter,
      pending: [{ role: 'user', content: questions[position] as string }],
      recall: index,
    }).meta.tokens.recall
  })
  return {
    entries: thread.entries.length,
    buildMs,
    indexed: index.size,
    appendIndex,
    projectWithout,
    projectWithRecall,
    recallTokens: Math.round(recallTokens / QUERIES),
  }
}

const figures = SIZES.map((size) => {
  log(`recall on a ${size.toLocaleString('en-US')}-entry thread`)
  return measureSize(size)
})

console.log(`threadlens recall bench — ${machine().date}`)
console.log(`machine: ${machine().cpu}, ${machine().cores} cores, Node ${machine().node}`)
console.log(
  table(
    `Recall (BM25+ over postings), policy 16k (${POLICY.maxInputTokens - POLICY.reserveOutputTokens} input tokens), ${QUERIES} questions, warm counter; p50 / p95`,
    ['thread', 'index build', 'index update per append', 'project, window only', 'project + recall', 'recall tokens'],
    figures.map((row) => [
      `${row.entries.toLocaleString('en-US')} entries (${row.indexed.toLocaleString('en-US')} indexed)`,
      formatMs(row.buildMs),
      `${formatMs(row.appendIndex.medianMs)} / ${formatMs(row.appendIndex.p95Ms)}`,
      `${formatMs(row.projectWithout.medianMs)} / ${formatMs(row.projectWithout.p95Ms)}`,
      `${formatMs(row.projectWithRecall.medianMs)} / ${formatMs(row.projectWithRecall.p95Ms)}`,
      row.recallTokens.toLocaleString('en-US'),
    ]),
  ),
)
const out = fileURLToPath(new URL('../../../bench-results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(`${out}recall.json`, JSON.stringify({ machine: machine(), figures }, null, 2))
console.log(`figures written to ${out}recall.json`)
