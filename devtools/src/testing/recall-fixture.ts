import { createThread, createTokenCounter, definePolicy, project, type ContextPolicy, type EntryInput, type ProjectionResult } from '@threadlens/core'
import { createRecallIndex } from '@threadlens/core/recall'

/**
 * A conversation whose first turn holds a fact (the adoption agency's paperwork), then `turns` turns
 * of filler, and a last question about that fact: under a small window with recall, the first turn
 * is recalled while the filler between is left out.
 */
export function recallConversation(turns = 30): EntryInput[] {
  const inputs: EntryInput[] = [
    {
      kind: 'message',
      payload: { role: 'user', content: 'Remember: the adoption agency needs our signed paperwork before Friday.' },
      refs: { requestId: 'r-fact' },
    },
    {
      kind: 'message',
      payload: { role: 'assistant', content: 'Noted: signed paperwork for the adoption agency, due Friday.' },
      refs: { requestId: 'r-fact', callId: 'c-fact' },
    },
  ]
  for (let turn = 0; turn < turns; turn++) {
    inputs.push({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'lorem '.repeat(30)}` }, refs: { requestId: `r${turn}` } })
    inputs.push({
      kind: 'message',
      payload: { role: 'assistant', content: `answer ${turn} ${'ipsum '.repeat(30)}` },
      refs: { requestId: `r${turn}`, callId: `c${turn}` },
    })
  }
  inputs.push({ kind: 'message', payload: { role: 'user', content: 'What did the adoption agency need from us?' }, refs: { requestId: 'r-last' } })
  return inputs
}

/** A heuristic-counted window small enough that the filler is cut, with recall on or off. */
export function recallPolicy(recall: boolean): ContextPolicy {
  return definePolicy({
    name: recall ? 'recall' : 'no recall',
    tokenizer: 'heuristic',
    maxInputTokens: 1200,
    reserveOutputTokens: 200,
    ...(recall ? { recall: {} } : {}),
  })
}

/** `recallConversation()` projected with a recall index (or without one: `index: false`). */
export async function recalledProjection(options: { readonly recall?: boolean; readonly index?: boolean } = {}): Promise<ProjectionResult> {
  const thread = createThread({ id: 'recall-fixture', now: () => Date.UTC(2023, 4, 8) })
  for (const input of recallConversation()) thread.append(input)
  const counter = await createTokenCounter('heuristic')
  return project({
    thread,
    policy: recallPolicy(options.recall ?? true),
    counter,
    ...(options.index === false ? {} : { recall: createRecallIndex() }),
  })
}
