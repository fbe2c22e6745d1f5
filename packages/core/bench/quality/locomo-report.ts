import { formatMs, summarize } from '../measure'
import { BUDGETS, FULL_CONTEXT, type LocomoFigures } from './locomo-run'
import { CATEGORIES, type Category } from './locomo-data'
import { integer, markdownTable, percent } from './markdown'
import type { Tally } from './metrics'
import type { ToolFigures, ToolTally } from './tool-trace-run'

// The tables `npm run bench` prints for the LoCoMo bench, as markdown.

const budgetLabel = (budget: number): string => `${budget / 1024}k`
const median = (samples: readonly number[]): string => (samples.length === 0 ? '–' : formatMs(summarize(samples).medianMs))

function recallColumn(tally: Pick<Tally, 'recallTokens' | 'recallSkipped'>, questions: number, hasRecall: boolean): string {
  if (!hasRecall) return '–'
  const skipped = Object.entries(tally.recallSkipped)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ')
  return `${integer(tally.recallTokens / questions)}${skipped === '' ? '' : ` (skipped: ${skipped})`}`
}

/**
 * A row per strategy that has a tally at `budget` (the full context has one for every budget): its
 * label, its own `columns`, then tokens sent, share of budget, ms per projection and recall tokens.
 */
function strategyRows<T extends Tally | ToolTally>(
  tallies: Map<string, Map<number, T>>,
  budget: number,
  columns: (tally: T) => string[],
): string[][] {
  const full = tallies.get(FULL_CONTEXT)?.get(0) as T
  return [...tallies.keys()].flatMap((label) => {
    const tally = label === FULL_CONTEXT ? full : tallies.get(label)?.get(budget)
    if (tally === undefined) return []
    return [
      [
        label,
        ...columns(tally),
        integer(tally.tokens / tally.questions),
        label === FULL_CONTEXT ? '–' : percent(tally.budgetShare / tally.questions),
        median(tally.ms),
        recallColumn(tally, tally.questions, label.includes('recall')),
      ],
    ]
  })
}

export function locomoTables(figures: LocomoFigures): string[] {
  const tables: string[] = []
  tables.push(
    markdownTable(
      'LoCoMo conversations (categories 1–4; adversarial questions left out)',
      ['conversation', 'dialogue turns', 'thread tokens', 'questions', 'evidence ids not in the dialogue'],
      figures.conversations.map((conversation) => [
        conversation.name,
        String(conversation.turns),
        integer(conversation.threadTokens),
        String(conversation.questions),
        String(conversation.unknownEvidence),
      ]),
    ),
  )
  const labels = [...figures.tallies.keys()]
  const full = figures.tallies.get(FULL_CONTEXT)?.get(0) as Tally
  for (const budget of BUDGETS) {
    const rows = strategyRows(figures.tallies, budget, (tally) => [
      percent(tally.evidenceVerbatim / tally.evidenceTurns),
      percent(tally.evidenceCovered / tally.evidenceTurns),
      percent(tally.answered / tally.answerable),
    ])
    tables.push(
      markdownTable(
        `LoCoMo, ${budgetLabel(budget)} budget (${integer(budget)} input tokens, nothing reserved): ${full.questions} questions, ${full.evidenceTurns} evidence turns`,
        ['strategy', 'evidence verbatim', 'evidence covered', 'answer recall', 'tokens sent', 'share of budget', 'ms / projection', 'recall tokens'],
        rows,
      ),
    )
  }
  const categories = Object.keys(CATEGORIES).map(Number) as Category[]
  tables.push(
    markdownTable(
      `LoCoMo answer recall by question category, at ${BUDGETS.map(budgetLabel).join(' / ')} (questions: ${categories.map((category) => `${CATEGORIES[category]} ${full.byCategory[category].answerable}`).join(', ')})`,
      ['strategy', ...categories.map((category) => CATEGORIES[category])],
      labels.map((label) => [
        label,
        ...categories.map((category) => {
          const share = (tally: Tally): string => {
            const { answered, answerable } = tally.byCategory[category]
            return answerable === 0 ? '–' : (100 * (answered / answerable)).toFixed(0)
          }
          if (label === FULL_CONTEXT) return share(full)
          return BUDGETS.map((budget) => {
            const tally = figures.tallies.get(label)?.get(budget)
            return tally === undefined ? '–' : share(tally)
          }).join(' / ')
        }),
      ]),
    ),
  )
  const replayed = new Map<string, { compactions: number; failures: number; ms: number }>()
  for (const step of figures.compaction) {
    const key = `${step.strategy}|${step.budget}`
    const sum = replayed.get(key) ?? { compactions: 0, failures: 0, ms: 0 }
    replayed.set(key, { compactions: sum.compactions + step.compactions, failures: sum.failures + step.failures, ms: sum.ms + step.ms })
  }
  tables.push(
    markdownTable(
      'Compaction replayed as a session runs it (after each user turn; the three conversations together)',
      ['strategy', 'budget', 'summaries appended', 'failed', 'replay time'],
      [...replayed].map(([key, sum]) => {
        const [strategy, budget] = key.split('|') as [string, string]
        return [strategy, budgetLabel(Number(budget)), String(sum.compactions), String(sum.failures), formatMs(sum.ms)]
      }),
    ),
  )
  return tables
}

export function toolTables(figures: ToolFigures): string[] {
  return BUDGETS.map((budget) =>
    markdownTable(
      `Tool-heavy trace (synthetic, seeded: ${figures.entries} entries, ${integer(figures.threadTokens)} tokens, ${figures.questions} late questions each needing one early order lookup), ${budgetLabel(budget)} budget`,
      [
        'strategy',
        'call + result sent',
        'tracking number sent',
        'invalid requests',
        'tokens sent',
        'share of budget',
        'ms / projection',
        'recall tokens',
      ],
      strategyRows(figures.tallies, budget, (tally) => [
        percent(tally.keptTogether / tally.questions),
        percent(tally.answered / tally.questions),
        String(tally.invalid),
      ]),
    ),
  )
}
