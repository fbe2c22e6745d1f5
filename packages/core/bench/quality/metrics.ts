import { CATEGORIES, type Category, type Question } from './locomo-data'
import type { Sent } from './sent'
import { contentWords } from './words'

// How much of what a question needs reached the model. Evidence: the turns LoCoMo names as holding
// the answer. Answer: every content word of the gold answer appears somewhere in the text sent (a
// proxy for "the model could answer"; no model is called).

/** An evidence turn counts as covered by a summary when this share of its content words is in it. */
export const COVERED_SHARE = 0.8

export interface Tally {
  evidenceTurns: number
  evidenceVerbatim: number
  evidenceCovered: number
  questions: number
  answerable: number
  answered: number
  byCategory: Record<Category, { answerable: number; answered: number }>
  tokens: number
  budgetShare: number
  invalid: number
  ms: number[]
  /** Recall's block tokens summed, and how often it sent nothing, by reason (policies with recall). */
  recallTokens: number
  recallSkipped: Record<string, number>
}

export function emptyTally(): Tally {
  const byCategory = Object.fromEntries(Object.keys(CATEGORIES).map((category) => [category, { answerable: 0, answered: 0 }])) as Tally['byCategory']
  return {
    evidenceTurns: 0,
    evidenceVerbatim: 0,
    evidenceCovered: 0,
    questions: 0,
    answerable: 0,
    answered: 0,
    byCategory,
    tokens: 0,
    budgetShare: 0,
    invalid: 0,
    ms: [],
    recallTokens: 0,
    recallSkipped: {},
  }
}

export function wordSet(text: string): Set<string> {
  return new Set(contentWords(text))
}

/** Whether every one of `needed` is in `present` (`undefined`: nothing to look for). */
export function allPresent(needed: readonly string[], present: ReadonlySet<string>): boolean | undefined {
  if (needed.length === 0) return undefined
  return needed.every((word) => present.has(word))
}

export interface QuestionContext {
  readonly question: Question
  /** Seq of each evidence turn in the thread the strategy projected from. */
  readonly evidenceSeqs: readonly number[]
  /** Content words of each evidence turn, same order. */
  readonly evidenceWords: readonly (readonly string[])[]
}

export function tallyQuestion(tally: Tally, context: QuestionContext, sent: Sent, budget: number | undefined): void {
  tally.questions++
  const summaryWords = sent.summary === '' ? undefined : wordSet(sent.summary)
  context.evidenceSeqs.forEach((seq, position) => {
    tally.evidenceTurns++
    if (sent.verbatim.has(seq)) {
      tally.evidenceVerbatim++
      tally.evidenceCovered++
      return
    }
    const needed = context.evidenceWords[position] as readonly string[]
    if (summaryWords === undefined || needed.length === 0) return
    if (needed.filter((word) => summaryWords.has(word)).length >= COVERED_SHARE * needed.length) tally.evidenceCovered++
  })
  const answered = allPresent(contentWords(context.question.answer), wordSet(sent.text))
  if (answered !== undefined) {
    tally.answerable++
    const category = tally.byCategory[context.question.category]
    category.answerable++
    if (answered) {
      tally.answered++
      category.answered++
    }
  }
  tally.tokens += sent.tokens
  if (budget !== undefined) tally.budgetShare += sent.tokens / budget
  if (sent.invalid) tally.invalid++
  tally.ms.push(sent.ms)
  tallyRecall(tally, sent)
}

export function tallyRecall(tally: Pick<Tally, 'recallTokens' | 'recallSkipped'>, sent: Sent): void {
  if (sent.recall === undefined) return
  tally.recallTokens += sent.recall.tokens
  if (sent.recall.skipped !== undefined) tally.recallSkipped[sent.recall.skipped] = (tally.recallSkipped[sent.recall.skipped] ?? 0) + 1
}
