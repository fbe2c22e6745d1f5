import { definePolicy, presets, type ContextPolicy, type PolicyOptions } from '../../src/index'
import { coldCounter } from '../o200k'
import { compactedCopy } from './compaction-replay'
import { langChainTrimmer } from './langchain-sent'
import { conversationThread, loadConversation, type Conversation } from './locomo-data'
import { emptyTally, tallyQuestion, type QuestionContext, type Tally } from './metrics'
import type { Recall, RecallSearcher } from './recall-loader'
import type { Sent } from './sent'
import { projectQuestion } from './threadlens-sent'
import { baselines, threadUnits } from './units'
import { contentWords } from './words'

// Every strategy answers every question of every conversation at every budget; the tallies add up
// across conversations. One warm counter per conversation serves every strategy.

export const BUDGETS = [4_096, 8_192, 16_384, 32_768] as const
export const FULL_CONTEXT = 'full context (no budget)'

export const PRESETS = [
  ['presets.shortContext()', presets.shortContext],
  ['presets.longContext()', presets.longContext],
  ['presets.toolFocused()', presets.toolFocused],
] as const

export interface CompactionFigures {
  readonly strategy: string
  readonly budget: number
  readonly conversation: string
  readonly compactions: number
  readonly failures: number
  readonly ms: number
}

export interface LocomoFigures {
  /** Tallies by strategy label, then budget (`0` for the full context). */
  readonly tallies: Map<string, Map<number, Tally>>
  readonly compaction: CompactionFigures[]
  readonly conversations: {
    readonly name: string
    readonly turns: number
    readonly threadTokens: number
    readonly questions: number
    readonly unknownEvidence: number
  }[]
}

/** The questions of a conversation with their evidence located in `diaIdBySeq`'s thread. */
export function contexts(conversation: Conversation, diaIdBySeq: ReadonlyMap<number, string>): QuestionContext[] {
  const seqByDiaId = new Map([...diaIdBySeq].map(([seq, diaId]) => [diaId, seq]))
  const textByDiaId = new Map(
    conversation.inputs.flatMap(({ input, diaId }) =>
      diaId === undefined || input.kind !== 'message' ? [] : [[diaId, input.payload.content] as const],
    ),
  )
  return conversation.questions.map((question) => ({
    question,
    evidenceSeqs: question.evidence.map((id) => seqByDiaId.get(id) as number),
    evidenceWords: question.evidence.map((id) => contentWords(textByDiaId.get(id) ?? '')),
  }))
}

export async function runLocomo(recall: Recall | undefined, log: (text: string) => void): Promise<LocomoFigures> {
  const tallies = new Map<string, Map<number, Tally>>()
  const tallyOf = (label: string, budget: number): Tally => {
    let byBudget = tallies.get(label)
    if (byBudget === undefined) tallies.set(label, (byBudget = new Map()))
    let tally = byBudget.get(budget)
    if (tally === undefined) byBudget.set(budget, (tally = emptyTally()))
    return tally
  }
  const compaction: CompactionFigures[] = []
  const conversations: LocomoFigures['conversations'][number][] = []

  for (const name of ['26', '30', '41']) {
    const conversation = loadConversation(name)
    const counter = coldCounter()
    const { thread, diaIdBySeq } = conversationThread(conversation)
    const asked = contexts(conversation, diaIdBySeq)
    const units = threadUnits(thread, counter)
    const base = baselines(units, counter)
    const trimmer = langChainTrimmer(thread)
    const recallIndex = recall?.createIndex()
    const threadTokens = units.reduce((total, unit) => total + unit.tokens, 0)
    conversations.push({
      name,
      turns: conversation.inputs.filter(({ diaId }) => diaId !== undefined).length,
      threadTokens,
      questions: asked.length,
      unknownEvidence: conversation.unknownEvidence,
    })
    log(`conversation ${name}: ${units.length} messages, ${threadTokens} tokens, ${asked.length} questions`)

    for (const context of asked) tallyQuestion(tallyOf(FULL_CONTEXT, 0), context, base.full(context.question.question), undefined)

    for (const budget of BUDGETS) {
      const sizes: PolicyOptions = { maxInputTokens: budget, reserveOutputTokens: 0 }
      const ask = async (
        label: string,
        questions: readonly QuestionContext[],
        answer: (question: string, index: number) => Sent | Promise<Sent>,
      ): Promise<void> => {
        const tally = tallyOf(label, budget)
        for (const [index, context] of questions.entries()) tallyQuestion(tally, context, await answer(context.question.question, index), budget)
      }
      const windowOnly = async (label: string, policy: ContextPolicy, searcher?: RecallSearcher): Promise<void> =>
        ask(label, asked, (question) => projectQuestion(thread, policy, counter, question, searcher))
      const compacted = async (label: string, policy: ContextPolicy, withRecall: boolean): Promise<void> => {
        const replayIndex = withRecall ? recall?.createIndex() : undefined
        const copy = await compactedCopy(
          `locomo-${name}-${budget}-${label.replace(/[^A-Za-z0-9]+/g, '-')}`,
          conversation.inputs,
          policy,
          counter,
          replayIndex,
        )
        compaction.push({ strategy: label, budget, conversation: name, compactions: copy.compactions, failures: copy.failures, ms: copy.ms })
        await ask(label, contexts(conversation, copy.diaIdBySeq), (question) => projectQuestion(copy.thread, policy, counter, question, replayIndex))
      }

      await ask('sliding window (newest turns)', asked, (question) => base.slidingWindow(question, budget))
      await ask('LangChain trimMessages (last)', asked, (question, index) => trimmer.sent(question, `question-${name}-${index}`, budget))
      await ask('BM25-half', asked, (question) => base.bm25Half(question, budget))
      await ask('BM25-tuned', asked, (question) => base.bm25Tuned(question, budget))
      await windowOnly('definePolicy (window)', definePolicy(sizes))
      for (const [label, preset] of PRESETS) await windowOnly(label, preset(sizes))
      for (const [label, preset] of PRESETS) await compacted(`${label} + compaction`, preset(sizes), false)
      if (recall !== undefined && recallIndex !== undefined) {
        await windowOnly('definePolicy + recall', definePolicy({ ...sizes, ...recall.options }), recallIndex)
        for (const [label, preset] of PRESETS) await windowOnly(`${label} + recall`, preset({ ...sizes, ...recall.options }), recallIndex)
        for (const [label, preset] of PRESETS) await compacted(`${label} + recall + compaction`, preset({ ...sizes, ...recall.options }), true)
      }
      log(`conversation ${name}: budget ${budget} done`)
    }
  }
  return { tallies, compaction, conversations }
}
