import { definePolicy, type ContextPolicy, type PolicyOptions } from '../../src/index'
import { coldCounter } from '../o200k'
import { langChainTrimmer } from './langchain-sent'
import { BUDGETS, FULL_CONTEXT, PRESETS } from './locomo-run'
import { tallyRecall } from './metrics'
import type { Recall, RecallSearcher } from './recall-loader'
import type { Sent } from './sent'
import { projectQuestion } from './threadlens-sent'
import { toolTrace, type ToolQuestion } from './tool-trace'
import { baselines, threadUnits } from './units'

// The tool-heavy case: is the early tool result a late question needs sent whole, with its call?

export interface ToolTally {
  questions: number
  /** The lookup's call and its result both sent, the result unshortened. */
  keptTogether: number
  /** The tracking number appears in the text sent. */
  answered: number
  invalid: number
  tokens: number
  budgetShare: number
  ms: number[]
  recallTokens: number
  recallSkipped: Record<string, number>
}

export interface ToolFigures {
  readonly entries: number
  readonly threadTokens: number
  readonly questions: number
  readonly tallies: Map<string, Map<number, ToolTally>>
}

function tally(target: ToolTally, question: ToolQuestion, sent: Sent, budget: number | undefined): void {
  target.questions++
  if (sent.verbatim.has(question.callSeq) && sent.verbatim.has(question.resultSeq)) target.keptTogether++
  if (sent.text.includes(question.trackingNumber)) target.answered++
  if (sent.invalid) target.invalid++
  target.tokens += sent.tokens
  if (budget !== undefined) target.budgetShare += sent.tokens / budget
  target.ms.push(sent.ms)
  tallyRecall(target, sent)
}

export async function runToolTrace(recall: Recall | undefined): Promise<ToolFigures> {
  const { thread, questions } = toolTrace()
  const counter = coldCounter()
  const units = threadUnits(thread, counter)
  const base = baselines(units, counter)
  const trimmer = langChainTrimmer(thread)
  const recallIndex = recall?.createIndex()
  const tallies = new Map<string, Map<number, ToolTally>>()
  const ask = async (label: string, budget: number, answer: (question: string, index: number) => Sent | Promise<Sent>): Promise<void> => {
    let byBudget = tallies.get(label)
    if (byBudget === undefined) tallies.set(label, (byBudget = new Map()))
    const target: ToolTally = {
      questions: 0,
      keptTogether: 0,
      answered: 0,
      invalid: 0,
      tokens: 0,
      budgetShare: 0,
      ms: [],
      recallTokens: 0,
      recallSkipped: {},
    }
    byBudget.set(budget, target)
    for (const [index, question] of questions.entries())
      tally(target, question, await answer(question.question, index), budget === 0 ? undefined : budget)
  }
  const windowOnly = (label: string, budget: number, policy: ContextPolicy, searcher?: RecallSearcher): Promise<void> =>
    ask(label, budget, (question) => projectQuestion(thread, policy, counter, question, searcher))

  await ask(FULL_CONTEXT, 0, (question) => base.full(question))
  for (const budget of BUDGETS) {
    const sizes: PolicyOptions = { maxInputTokens: budget, reserveOutputTokens: 0 }
    await ask('sliding window (newest turns)', budget, (question) => base.slidingWindow(question, budget))
    await ask('LangChain trimMessages (last)', budget, (question, index) => trimmer.sent(question, `tool-question-${index}`, budget))
    await ask('BM25-half', budget, (question) => base.bm25Half(question, budget))
    await ask('BM25-tuned', budget, (question) => base.bm25Tuned(question, budget))
    await windowOnly('definePolicy (window)', budget, definePolicy(sizes))
    for (const [label, preset] of PRESETS) await windowOnly(label, budget, preset(sizes))
    if (recall !== undefined && recallIndex !== undefined) {
      await windowOnly('definePolicy + recall', budget, definePolicy({ ...sizes, ...recall.options }), recallIndex)
      for (const [label, preset] of PRESETS) await windowOnly(`${label} + recall`, budget, preset({ ...sizes, ...recall.options }), recallIndex)
    }
  }
  return { entries: thread.entries.length, threadTokens: units.reduce((total, unit) => total + unit.tokens, 0), questions: questions.length, tallies }
}
