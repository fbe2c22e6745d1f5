import { summarize, type Timing } from '../measure'
import { machine, writeBenchResults } from '../report'
import { runLocomo } from './locomo-run'
import { locomoTables, toolTables } from './locomo-report'
import { COVERED_SHARE } from './metrics'
import { loadRecall } from './recall-loader'
import { runToolTrace } from './tool-trace-run'

// `npm run bench`: what of a long real conversation reaches the model under a token budget. Three
// LoCoMo conversations (fixtures/locomo) are asked their questions by every strategy at four budgets;
// no model is called: we check whether the evidence turns and the answer's words were sent. Then a
// synthetic tool-heavy trace asks whether an early tool result is sent with its call. Prints markdown
// tables and writes bench-results/context-quality-locomo.json. Nothing here fails on a figure.

const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`)

async function main(): Promise<void> {
  const host = machine()
  const started = performance.now()
  console.log(`threadlens context-quality bench on LoCoMo — ${host.date}`)
  console.log(`machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGigabytes} GB, ${host.platform}, Node ${host.node}`)
  console.log("tokenizer: gpt-tokenizer o200k_base for every strategy, threadlens's per-message accounting")

  const loaded = await loadRecall()
  const recall = 'recall' in loaded ? loaded.recall : undefined
  console.log(
    'missing' in loaded
      ? `recall not available (${loaded.missing}): its rows are left out`
      : 'recall: policy option `recall: {}` (defaults) with one createRecallIndex() per thread',
  )

  const locomo = await runLocomo(recall, log)
  for (const text of locomoTables(locomo)) console.log(text)
  console.log(
    [
      '',
      'evidence verbatim: share of the evidence turns sent as written (not summarized); covered: those plus turns',
      `whose content words are at least ${100 * COVERED_SHARE}% in the summary sent. answer recall: questions whose gold answer's`,
      'content words (lowercased, no punctuation or stop words) all appear in the text sent besides the question.',
      'tokens sent: the whole request, o200k_base; ms / projection: median time to build one request (indexes built once per thread, not counted).',
      'recall tokens: mean tokens of the recall block per question.',
    ].join('\n'),
  )

  log('tool-heavy trace')
  const tools = await runToolTrace(recall)
  for (const text of toolTables(tools)) console.log(text)
  console.log("\ncall + result sent: the lookup's tool call and its result both sent, the result whole (not masked, pruned or deduped).")

  // Per-question times are summarized: the JSON keeps the figures, not 30,000 samples.
  const byBudget = <T extends { ms: number[] }>(
    tallies: Map<string, Map<number, T>>,
  ): Record<string, Record<string, Omit<T, 'ms'> & { ms: Timing }>> =>
    Object.fromEntries(
      [...tallies].map(([label, budgets]) => [
        label,
        Object.fromEntries([...budgets].map(([budget, tally]) => [String(budget), { ...tally, ms: summarize(tally.ms) }])),
      ]),
    )
  const json = {
    machine: host,
    units: { time: 'ms', tokens: 'o200k_base tokens', share: 'fraction' },
    recall: 'missing' in loaded ? { available: false, why: loaded.missing } : { available: true },
    locomo: { conversations: locomo.conversations, tallies: byBudget(locomo.tallies), compaction: locomo.compaction },
    toolTrace: { entries: tools.entries, threadTokens: tools.threadTokens, questions: tools.questions, tallies: byBudget(tools.tallies) },
  }
  writeBenchResults('context-quality-locomo.json', started, json)
}

await main()
