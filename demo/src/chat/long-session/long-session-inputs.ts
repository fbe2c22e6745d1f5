import type { EntryInput, JsonObject, JsonValue } from '@threadlens/core'
import { evaluateArithmetic, roundResult } from '../tools/arithmetic'
import { documentText } from '../tools/documents'
import { convertUnits } from '../tools/units'

const places = ['Lisbon', 'Kyoto', 'Oslo', 'Tbilisi', 'Valparaíso', 'Hanoi', 'Marrakesh', 'Reykjavík', 'Porto', 'Ljubljana']
const items = ['rain jacket', 'hiking boots', 'power adapter', 'first-aid kit', 'headlamp', 'water filter', 'guidebook', 'dry bag']
const questions = [
  (place: string) => `What is the best month to visit ${place} if we want fewer crowds?`,
  (place: string) => `Can you suggest a two-day walking route through ${place}?`,
  (place: string) => `Is it easy to get from the airport to the old town in ${place} by public transport?`,
  (place: string) => `What local dish should we try in ${place}, and is there a vegetarian version?`,
  (place: string) => `How many days would you spend in ${place} on a first visit?`,
]
const answers = [
  (place: string, item: string) =>
    `For ${place} I would go in late spring or early autumn: mild weather, shorter queues and cheaper rooms. Pack a ${item}; evenings can turn quickly.`,
  (place: string) =>
    `Day one: start at the market in ${place} early, walk the river path, and end at a viewpoint for sunset. Day two: museums in the morning, a long lunch, then the old quarter on foot.`,
  (place: string) =>
    `Yes: a direct train or bus runs from the airport into central ${place} every 15–20 minutes, and a day ticket covers it. Taxis are fixed-price but three times the cost.`,
  (place: string) =>
    `Try the signature stew in ${place}; most places do a bean-and-vegetable version if you ask, and the markets have excellent pastries.`,
  (place: string) => `Three full days in ${place} is a good first visit: one for the centre, one for a day trip, one unplanned.`,
]

// Repeated on purpose: the mulberry32 of packages/core/src/testing/seeded-random.ts (the demo ships, so it does not import the test kit).
/** A small deterministic PRNG (mulberry32), so a batch is the same for the same seed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

interface ToolTurn {
  readonly user: string
  readonly preface: string
  readonly name: string
  readonly arguments: JsonObject
  readonly result: JsonValue
  readonly answer: string
}

function toolTurn(kind: number, pick: <T>(list: readonly T[]) => T, next: () => number): ToolTurn {
  const place = pick(places)
  if (kind === 0) {
    const nights = 2 + Math.floor(next() * 6)
    const rate = 60 + Math.floor(next() * 140)
    const fee = 20 + Math.floor(next() * 40)
    const expression = `${nights} * ${rate} + ${fee}`
    const result = roundResult(evaluateArithmetic(expression))
    return {
      user: `How much is ${nights} nights in ${place} at ${rate} EUR a night plus a ${fee} EUR cleaning fee?`,
      preface: 'Let me calculate that.',
      name: 'calculator',
      arguments: { expression },
      result: { expression, result },
      answer: `${expression} = ${result}: the stay in ${place} comes to ${result} EUR.`,
    }
  }
  if (kind === 1) {
    const miles = 3 + Math.floor(next() * 20)
    const conversion = convertUnits(miles, 'mi', 'km')
    return {
      user: `The coastal trail near ${place} is ${miles} miles. How far is that in km?`,
      preface: 'Converting.',
      name: 'convert_units',
      arguments: { value: miles, from: 'mi', to: 'km' },
      result: { ...conversion },
      answer: `${miles} mi is ${conversion.result} km, a comfortable day hike with breaks.`,
    }
  }
  const name = `${place} travel advisory`
  const text = documentText(name, 30)
  return {
    user: `Read the ${name} and tell me if anything affects our plans.`,
    preface: 'Reading the document.',
    name: 'read_document',
    arguments: { name, lines: 30 },
    result: text,
    answer: `I read the ${name} (${text.split('\n').length} lines). Nothing blocks the trip; note the section on costs and carry some cash.`,
  }
}

/**
 * A fact planted early in the session and asked about in its last turn, so the last question needs
 * something from about 200 turns back: what `policy.recall` brings back into the context.
 */
export const recallFact = {
  /** How many turns before the last one the fact is told. */
  turnsBack: 210,
  user: 'Remember for later: our friend Inês recommended a tile-painting workshop called Oficina Azulejo, near the cathedral in Porto. It has to be booked two weeks ahead.',
  assistant: 'Noted: Oficina Azulejo, the tile-painting workshop near the Porto cathedral that Inês recommended; book it two weeks ahead.',
  question: 'Which tile-painting workshop did Inês recommend, and when do we have to book it?',
  answer: 'Inês recommended Oficina Azulejo, the tile-painting workshop near the cathedral in Porto. It has to be booked two weeks ahead.',
} as const

export interface LongSessionOptions {
  readonly turns: number
  /** Makes request, call and tool call ids unique across batches. */
  readonly batchId: string
  /** Seeds the content. Default 1. */
  readonly seed?: number
}

/**
 * `turns` realistic turns as a session would have written them: user messages, assistant replies,
 * and every third turn or so a model call with a tool call and its result (same refs as the loop).
 * With 2 turns or more, it ends by asking about something told `recallFact.turnsBack` turns earlier
 * (or in its first turn, when shorter).
 */
export function longSessionInputs({ turns, batchId, seed = 1 }: LongSessionOptions): EntryInput[] {
  const next = random(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const inputs: EntryInput[] = []
  const factTurn = turns < 2 ? -1 : Math.max(0, turns - 1 - recallFact.turnsBack)
  for (let turn = 0; turn < turns; turn++) {
    const requestId = `${batchId}-r${turn}`
    const firstCall = { requestId, callId: `${batchId}-c${turn}a`, iteration: 0 }
    const told = turn === factTurn ? recallFact : undefined
    const asked = factTurn >= 0 && turn === turns - 1 ? recallFact : undefined
    if (told !== undefined || asked !== undefined) {
      inputs.push(
        { kind: 'message', payload: { role: 'user', content: told?.user ?? recallFact.question }, refs: { requestId } },
        { kind: 'message', payload: { role: 'assistant', content: told?.assistant ?? recallFact.answer }, refs: firstCall },
      )
    } else if (next() < 0.4) {
      const tool = toolTurn(Math.floor(next() * 3), pick, next)
      const toolCallId = `${batchId}-t${turn}`
      const secondCall = { requestId, callId: `${batchId}-c${turn}b`, iteration: 1 }
      inputs.push(
        { kind: 'message', payload: { role: 'user', content: tool.user }, refs: { requestId } },
        { kind: 'message', payload: { role: 'assistant', content: tool.preface }, refs: firstCall },
        { kind: 'tool_call', payload: { name: tool.name, arguments: tool.arguments }, refs: { ...firstCall, toolCallId } },
        { kind: 'tool_result', payload: { name: tool.name, result: tool.result }, refs: { ...firstCall, toolCallId } },
        { kind: 'message', payload: { role: 'assistant', content: tool.answer }, refs: secondCall },
      )
    } else {
      const place = pick(places)
      const topic = Math.floor(next() * questions.length)
      inputs.push(
        { kind: 'message', payload: { role: 'user', content: (questions[topic] as (place: string) => string)(place) }, refs: { requestId } },
        {
          kind: 'message',
          payload: { role: 'assistant', content: (answers[topic] as (place: string, item: string) => string)(place, pick(items)) },
          refs: firstCall,
        },
      )
    }
  }
  return inputs
}
