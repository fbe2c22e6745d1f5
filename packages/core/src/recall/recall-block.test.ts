import { beforeAll, describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { createRecallIndex } from './recall-index'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

/** A long chat with one turn about a ferry early on, its answer two turns later. */
function chat(): ReturnType<typeof createThread> {
  const thread = createThread({ id: 'widen', now: () => 0 })
  const say = (role: 'user' | 'assistant', content: string) => thread.append({ kind: 'message', payload: { role, content } })
  for (let turn = 0; turn < 10; turn++) say(turn % 2 === 0 ? 'user' : 'assistant', `Small talk number ${turn} about the weather and the garden.`)
  say('user', 'Which ferry should I take to Bergen?')
  say('assistant', 'Let me think about the timetable.')
  say('user', 'Take your time.')
  say('assistant', 'The 10:15 from pier 3 is the fastest.')
  for (let turn = 0; turn < 60; turn++)
    say(turn % 2 === 0 ? 'user' : 'assistant', `More chatter ${turn} about books, films and the neighbours' new dog.`)
  return thread
}

describe('the recall block', () => {
  const question = [{ role: 'user' as const, content: 'Remind me about the ferry to Bergen' }]

  it('brings the wider surroundings of its hits while room is left, nearest first, whole and in order', () => {
    const thread = chat()
    const policy = (maxTokens: number) =>
      definePolicy({ maxInputTokens: 600, reserveOutputTokens: 0, recall: { neighbors: 0, maxTokens, share: 0.6 } })
    const roomy = project({ thread, policy: policy(400), counter, pending: question, recall: createRecallIndex() }).meta.recall
    // The hit (#10) and, with the room left, the turns around it: the answer at #13 among them.
    expect(roomy?.hits.map((hit) => hit.seq)).toEqual([10])
    expect(roomy?.seqs).toEqual(expect.arrayContaining([9, 10, 11, 12, 13]))
    const seqs = roomy?.seqs ?? []
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length)
    // With room for the hit alone, it comes alone.
    const tight = project({ thread, policy: policy(60), counter, pending: question, recall: createRecallIndex() }).meta.recall
    expect(tight?.seqs).toEqual([10])
  })
})
