import { gzipSync } from 'node:zlib'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { definePolicy } from '../../src/index'
import { buildThread, TextSource } from '../generate-thread'
import { formatMs, summarize } from '../measure'
import { coldCounter } from '../o200k'
import { machine, table } from '../report'
import { conversationThread, loadConversation } from './locomo-data'
import { contexts } from './locomo-run'
import { emptyTally, tallyQuestion, type Tally } from './metrics'
import { searchEngines, type SearchEngine } from './search-engines'
import { projectQuestion } from './threadlens-sent'

// `pnpm bench`: which search engine recall should use, measured side by side in one run — what
// reaches the model (LoCoMo evidence and answers under definePolicy + recall), the cost of a search
// on a 10k-entry thread of common words, and the bytes an app downloads for it. Every engine gets
// the same terms and query terms; only ranking and cost differ. Not a test: nothing fails on a figure.

const BUDGETS = [4_096, 8_192, 16_384] as const
const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`)

function quality(engine: SearchEngine): Map<number, Tally> {
  const tallies = new Map<number, Tally>(BUDGETS.map((budget) => [budget, emptyTally()]))
  for (const name of ['26', '30', '41']) {
    const conversation = loadConversation(name)
    const counter = coldCounter()
    const { thread, diaIdBySeq } = conversationThread(conversation)
    const index = engine.createIndex()
    for (const budget of BUDGETS) {
      const policy = definePolicy({ maxInputTokens: budget, reserveOutputTokens: 0, recall: {} })
      for (const context of contexts(conversation, diaIdBySeq))
        tallyQuestion(tallies.get(budget) as Tally, context, projectQuestion(thread, policy, counter, context.question.question, index), budget)
    }
  }
  return tallies
}

function speed(engine: SearchEngine): { buildMs: number; search: ReturnType<typeof summarize> } {
  const thread = buildThread(10_000)
  const index = engine.createIndex() as unknown as { search(request: object): unknown }
  const started = performance.now()
  index.search({ entries: thread.entries, query: 'x', from: 0, before: 0, limit: 1 })
  const buildMs = performance.now() - started
  const text = new TextSource(10_000)
  const samples: number[] = []
  for (let question = 0; question < 200; question++) {
    const query = text.sentence()
    const begin = performance.now()
    index.search({ entries: thread.entries, query, from: 0, before: 9_000, limit: 64 })
    if (question >= 20) samples.push(performance.now() - begin)
  }
  return { buildMs, search: summarize(samples) }
}

/** What the engine adds to an app, minified and gzipped: the library alone, or threadlens's term index alone (the term rules are the same for all). */
async function bytes(engine: SearchEngine): Promise<number> {
  const source =
    engine.bundleEntry === 'threadlens'
      ? `export { TermIndex } from ${JSON.stringify(fileURLToPath(new URL('../../src/recall/term-index.ts', import.meta.url)))}`
      : engine.bundleEntry === 'minisearch'
        ? `export { default } from 'minisearch'`
        : engine.bundleEntry === 'flexsearch'
          ? `export { Index } from 'flexsearch'`
          : `export { create, insertMultiple, search } from '@orama/orama'`
  // Inside core's node_modules, so the libraries (core's dev dependencies) resolve from it.
  const entry = fileURLToPath(new URL('../../node_modules/.cache/search-engine-entry.ts', import.meta.url))
  mkdirSync(dirname(entry), { recursive: true })
  writeFileSync(entry, source)
  const output = await build({
    root: dirname(entry),
    logLevel: 'silent',
    configFile: false,
    build: { write: false, minify: true, lib: { entry, formats: ['es'], fileName: 'entry' } },
  })
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []))
  return chunks.reduce((total, chunk) => total + ('code' in chunk ? gzipSync(chunk.code, { level: 9 }).length : 0), 0)
}

const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`

async function main(): Promise<void> {
  const rows: { engine: string; tallies: Map<number, Tally>; speed: ReturnType<typeof speed>; bytes: number }[] = []
  for (const engine of searchEngines) {
    log(`${engine.name}: LoCoMo`)
    const tallies = quality(engine)
    log(`${engine.name}: 10k thread`)
    rows.push({ engine: engine.name, tallies, speed: speed(engine), bytes: await bytes(engine) })
  }

  console.log(`threadlens recall search engines — ${machine().date}`)
  console.log(`machine: ${machine().cpu}, ${machine().cores} cores, Node ${machine().node}`)
  console.log(
    table(
      'LoCoMo (conversations 26, 30, 41; 385 questions), definePolicy + recall: answer recall (evidence verbatim) at 4k / 8k / 16k',
      ['engine', '4k', '8k', '16k'],
      rows.map((row) => [
        row.engine,
        ...BUDGETS.map((budget) => {
          const tally = row.tallies.get(budget) as Tally
          return `${percent(tally.answered, tally.answerable)} (${percent(tally.evidenceVerbatim, tally.evidenceTurns)})`
        }),
      ]),
    ),
  )
  // Repeated on purpose: the same shape as the LoCoMo table above (one row per engine, other columns).
  console.log(
    table(
      'Cost: a 10,000-entry synthetic thread of common words (index built once, then 180 questions), and bytes an app downloads for the engine',
      ['engine', 'index build', 'search p50 / p95', 'min+gzip'],
      rows.map((row) => [
        row.engine,
        formatMs(row.speed.buildMs),
        `${formatMs(row.speed.search.medianMs)} / ${formatMs(row.speed.search.p95Ms)}`,
        `${(row.bytes / 1024).toFixed(1)} KB`,
      ]),
    ),
  )
  const out = fileURLToPath(new URL('../../../../bench-results/', import.meta.url))
  mkdirSync(out, { recursive: true })
  writeFileSync(
    `${out}search-engines.json`,
    JSON.stringify({ machine: machine(), rows: rows.map((row) => ({ ...row, tallies: Object.fromEntries(row.tallies) })) }, null, 2),
  )
  console.log(`figures written to ${out}search-engines.json`)
}

await main()
