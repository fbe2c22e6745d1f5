import type { Entry, EntryInput } from '@threadlens/core'
import type { ThreadStore } from '@threadlens/store'
import { createSampleThread } from '../sample-thread'

/** The sample thread's entries as store inputs (same ids, times, refs and meta). */
function asInputs(entries: readonly Entry[]): EntryInput[] {
  return entries.map(
    (entry) =>
      ({
        kind: entry.kind,
        payload: entry.payload,
        refs: entry.refs,
        createdAt: entry.createdAt,
        id: entry.id,
        ...(entry.meta === undefined ? {} : { meta: entry.meta }),
      }) as EntryInput,
  )
}

/** Stores the sample thread once (it is kept in IndexedDB across reloads). */
export async function ensureSampleThread(threads: ThreadStore, threadId: string): Promise<void> {
  if ((await threads.get(threadId)) !== undefined) return
  await threads.create({ id: threadId, title: 'Trip to Japan (sample)' })
  await threads.appendMany(threadId, asInputs(createSampleThread().entries))
}

const topics = ['train times', 'hotel prices', 'museum hours', 'weather', 'restaurant list', 'budget check', 'packing list', 'temple route']

/** `count` deterministic entries: turns of user and assistant text, every fourth turn with a tool call. */
export function generatedInputs(count: number, startTurn = 0): EntryInput[] {
  const inputs: EntryInput[] = []
  let turn = startTurn
  while (inputs.length < count) {
    const topic = topics[turn % topics.length] as string
    const requestId = `g${turn}`
    inputs.push({
      kind: 'message',
      payload: { role: 'user', content: `Turn ${turn}: could you look at the ${topic} again? ${'Details follow. '.repeat(turn % 5)}` },
      refs: { requestId },
    })
    if (turn % 4 === 0) {
      const toolCallId = `gt${turn}`
      inputs.push({
        kind: 'tool_call',
        payload: { name: 'lookup', arguments: { topic, turn } },
        refs: { requestId, callId: `gc${turn}a`, toolCallId },
      })
      inputs.push({
        kind: 'tool_result',
        payload: { name: 'lookup', result: { topic, rows: [turn, turn + 1, turn + 2] } },
        refs: { requestId, toolCallId },
      })
    }
    inputs.push({
      kind: 'message',
      payload: { role: 'assistant', content: `Here is what I found about ${topic} (turn ${turn}).` },
      refs: { requestId, callId: `gc${turn}` },
    })
    turn++
  }
  return inputs.slice(0, count)
}

/** A thread of `count` generated entries, written in batches (for the bench and big-thread checks). */
export async function ensureGeneratedThread(threads: ThreadStore, threadId: string, count: number): Promise<void> {
  const existing = await threads.get(threadId)
  if (existing !== undefined && existing.entryCount >= count) return
  if (existing === undefined) await threads.create({ id: threadId, title: `${count} generated entries` })
  const inputs = generatedInputs(count)
  for (let start = 0; start < inputs.length; start += 2000) await threads.appendMany(threadId, inputs.slice(start, start + 2000))
}
