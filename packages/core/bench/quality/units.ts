import { recallText } from '../../src/recall/index'
import type { Entry, Thread, TokenCounter } from '../../src/index'
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS } from '../../src/internal/index'
import { bm25Index } from './bm25'
import type { Sent } from './sent'

// The baselines pick whole units, never half of one: a message, or one model call's tool calls with
// their results (so no baseline sends a result without its call). Sizes use threadlens's accounting,
// so every strategy fills the same budget the same way.

export interface Unit {
  readonly seqs: readonly number[]
  readonly text: string
  readonly tokens: number
  /** Dialogue turns and tool rounds; session headers are not (BM25 ranks only what was said). */
  readonly searchable: boolean
}

/** What the baselines search and send of an entry: the text recall searches (what the model reads of it). */
export function entryText(entry: Entry): string {
  return recallText(entry) ?? ''
}

export function threadUnits(thread: Thread, counter: TokenCounter): Unit[] {
  const units: { seqs: number[]; texts: string[]; tokens: number; searchable: boolean; callId: string | undefined }[] = []
  for (const entry of thread.entries) {
    if (entry.kind !== 'message' && entry.kind !== 'tool_call' && entry.kind !== 'tool_result') continue
    const callId = entry.refs.callId
    const last = units[units.length - 1]
    const joins = last !== undefined && callId !== undefined && last.callId === callId && entry.kind !== 'message'
    const unit = joins ? last : { seqs: [], texts: [], tokens: 0, searchable: !(entry.kind === 'message' && entry.payload.role === 'system'), callId }
    if (!joins) units.push(unit)
    unit.seqs.push(entry.seq)
    unit.texts.push(entryText(entry))
    unit.tokens += counter.countEntry(entry)
  }
  return units.map(({ seqs, texts, tokens, searchable }) => ({ seqs, text: texts.join('\n'), tokens, searchable }))
}

/** A question's baseline request: the units picked (sent in thread order), then the question. */
function sentOf(units: readonly Unit[], picked: ReadonlySet<number>, fixedTokens: number, started: number): Sent {
  const order = [...picked].sort((a, b) => a - b)
  let tokens = fixedTokens
  const verbatim = new Set<number>()
  const texts: string[] = []
  for (const position of order) {
    const unit = units[position] as Unit
    tokens += unit.tokens
    for (const seq of unit.seqs) verbatim.add(seq)
    texts.push(unit.text)
  }
  return { verbatim, summary: '', text: texts.join('\n'), tokens, invalid: false, ms: performance.now() - started }
}

/** What the request costs beside history: reply priming and the pending question. */
export function fixedTokens(question: string, counter: TokenCounter): number {
  return REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + counter.count(question)
}

/** Adds the newest units that fit `room`, stopping at the first that does not (a window). */
function newest(units: readonly Unit[], room: number, picked: Set<number>): number {
  let used = 0
  for (let position = units.length - 1; position >= 0; position--) {
    const tokens = (units[position] as Unit).tokens
    if (used + tokens > room) break
    used += tokens
    picked.add(position)
  }
  return used
}

export interface Baselines {
  full(question: string): Sent
  slidingWindow(question: string, budget: number): Sent
  /** Half the room for the newest units, half for the units BM25 ranks highest. */
  bm25Half(question: string, budget: number): Sent
  /** 10% for the newest units, the rest for BM25 hits each with its neighbours (±1). */
  bm25Tuned(question: string, budget: number): Sent
}

export function baselines(units: readonly Unit[], counter: TokenCounter): Baselines {
  const searchable = units.flatMap((unit, position) => (unit.searchable ? [position] : []))
  const index = bm25Index(searchable.map((position) => (units[position] as Unit).text))
  /** Unit positions by BM25 score for the question, best first, only those sharing a word with it. */
  const ranked = (question: string): number[] => {
    const scores = index.score(question)
    return searchable
      .map((position, document) => ({ position, score: scores[document] as number }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ position }) => position)
  }
  const withHits = (question: string, budget: number, newestShare: number, neighbours: number): Sent => {
    const started = performance.now()
    const fixed = fixedTokens(question, counter)
    const room = budget - fixed
    const picked = new Set<number>()
    let used = newest(units, Math.floor(room * newestShare), picked)
    for (const hit of ranked(question)) {
      const group: number[] = []
      for (let position = Math.max(0, hit - neighbours); position <= Math.min(units.length - 1, hit + neighbours); position++)
        if (!picked.has(position)) group.push(position)
      const tokens = group.reduce((total, position) => total + (units[position] as Unit).tokens, 0)
      if (group.length === 0 || used + tokens > room) continue
      used += tokens
      for (const position of group) picked.add(position)
    }
    return sentOf(units, picked, fixed, started)
  }
  return {
    full(question) {
      const started = performance.now()
      return sentOf(units, new Set(units.keys()), fixedTokens(question, counter), started)
    },
    slidingWindow(question, budget) {
      const started = performance.now()
      const fixed = fixedTokens(question, counter)
      const picked = new Set<number>()
      newest(units, budget - fixed, picked)
      return sentOf(units, picked, fixed, started)
    },
    bm25Half: (question, budget) => withHits(question, budget, 0.5, 0),
    bm25Tuned: (question, budget) => withHits(question, budget, 0.1, 1),
  }
}
