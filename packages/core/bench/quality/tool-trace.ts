import { seededRandom } from '../../src/testing/seeded-random'
import type { EntryInput, Thread } from '../../src/index'
import { emptyThread } from './locomo-data'

// A synthetic support-agent trace (deterministic, seeded): early on the agent looks up orders, and
// each lookup's JSON (order id, carrier, tracking number) is what a late question needs; the
// assistant's own replies never repeat the tracking number, so only the tool result holds it. In
// between: chat and tool rounds with large outputs (document searches, logs) that fill any budget.

export const TOOL_TRACE_TURNS = 300
const ORDER_LOOKUPS = 24
const SEED = 20_240_802

export interface ToolQuestion {
  readonly question: string
  readonly trackingNumber: string
  /** Seqs of the lookup's tool call and its result. */
  readonly callSeq: number
  readonly resultSeq: number
}

const VOCABULARY = (
  'account billing refund shipment warehouse delay customer invoice policy return exchange discount coupon ' +
  'subscription upgrade password login settings notification email address payment card bank transfer ' +
  'inventory supplier package courier label customs region holiday schedule support escalation ticket'
).split(' ')
const CUSTOMERS = ['Ada Park', 'Bruno Silva', 'Chen Wei', 'Dana Levi', 'Emil Novak', 'Farah Aziz', 'Goran Ilic', 'Hana Sato']
const CARRIERS = ['DHL', 'UPS', 'FedEx', 'PostNL', 'Royal Mail']

export function toolTrace(): { thread: Thread; questions: ToolQuestion[] } {
  const next = seededRandom(SEED)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const sentence = (length: number): string => {
    const words = Array.from({ length }, () => pick(VOCABULARY))
    return `${words.join(' ')}.`.replace(/^./, (first) => first.toUpperCase())
  }
  const code = (length: number): string => Array.from({ length }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(next() * 32)]).join('')

  const { thread, setTime } = emptyThread('tool-trace')
  const questions: ToolQuestion[] = []
  let time = Date.UTC(2026, 0, 5, 9)
  let model = 0
  const append = (input: EntryInput) => {
    time += 1000
    setTime(time)
    return thread.append(input)
  }
  const toolRound = (name: string, args: Record<string, string>, result: Record<string, unknown>): { callSeq: number; resultSeq: number } => {
    const callId = `model-${model++}`
    const toolCallId = `${callId}-tool-0`
    const call = append({ kind: 'tool_call', payload: { name, arguments: args }, refs: { callId, toolCallId } })
    const output = append({ kind: 'tool_result', payload: { name, result: result as never }, refs: { callId, toolCallId } })
    return { callSeq: call.seq, resultSeq: output.seq }
  }

  const lookupTurns = new Set(Array.from({ length: ORDER_LOOKUPS }, (_, position) => 2 + position * 3))
  for (let turn = 0; turn < TOOL_TRACE_TURNS; turn++) {
    if (lookupTurns.has(turn)) {
      const orderId = `${code(2)}-${1000 + Math.floor(next() * 9000)}`
      const trackingNumber = `TRK${code(10)}`
      const customer = pick(CUSTOMERS)
      append({ kind: 'message', payload: { role: 'user', content: `Can you look up order ${orderId} for ${customer}?` } })
      const { callSeq, resultSeq } = toolRound(
        'lookup_order',
        { orderId },
        {
          orderId,
          customer,
          status: pick(['shipped', 'in transit', 'held at customs', 'out for delivery']),
          carrier: pick(CARRIERS),
          trackingNumber,
          items: Array.from({ length: 2 + Math.floor(next() * 3) }, () => ({
            sku: code(6),
            quantity: 1 + Math.floor(next() * 3),
            note: sentence(6),
          })),
        },
      )
      append({ kind: 'message', payload: { role: 'assistant', content: `I found order ${orderId}; it is on its way. ${sentence(10)}` } })
      questions.push({ question: `What is the tracking number of order ${orderId}?`, trackingNumber, callSeq, resultSeq })
      continue
    }
    append({ kind: 'message', payload: { role: 'user', content: `${sentence(8 + Math.floor(next() * 12))} ${sentence(8)}` } })
    if (next() < 0.4) {
      const big = next() < 0.5
      if (big)
        toolRound(
          'search_docs',
          { query: sentence(4) },
          { hits: Array.from({ length: 6 + Math.floor(next() * 10) }, () => ({ id: code(8), text: sentence(40) })) },
        )
      else
        toolRound(
          'read_log',
          { service: pick(VOCABULARY) },
          { lines: Array.from({ length: 10 + Math.floor(next() * 20) }, () => `${code(4)} ${sentence(10)}`) },
        )
    }
    append({ kind: 'message', payload: { role: 'assistant', content: `${sentence(15 + Math.floor(next() * 25))} ${sentence(12)}` } })
  }
  return { thread, questions }
}
