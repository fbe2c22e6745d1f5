import { createThread, createTokenCounter, definePolicy, project } from '@threadlens/core'
import { expect, test } from 'vitest'
import { chatItems } from './chat-items'
import { describeFate, entryFates } from '@threadlens/core/views'

test("chat items carry each entry's fate in the chat's words: sent, summarized, left out (and why), or newer than the projection", async () => {
  const counter = await createTokenCounter('heuristic')
  const thread = createThread({ id: 't' })
  for (let turn = 0; turn < 6; turn++) {
    thread.append({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'words '.repeat(40)}` } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${'words '.repeat(40)}` } })
  }
  thread.append({ kind: 'summary', payload: { fromSeq: 0, toSeq: 3, content: 'Turns 0 and 1 were about questions.' } })
  const policy = definePolicy({ maxInputTokens: 600, reserveOutputTokens: 100, keepLastTurns: 1 })
  const { meta } = project({ thread, policy, counter })
  const { fateOf } = entryFates(meta)
  expect(fateOf(0)).toEqual({ state: 'summarized', summarySeq: 12 })
  expect(describeFate(fateOf(0)).text).toBe('summarized by #12')
  expect(fateOf(12).state).toBe('summary')
  expect(fateOf(11)).toEqual({ state: 'included', reduced: undefined })
  expect(fateOf(4)).toEqual({ state: 'dropped', reason: 'budget' })
  expect(describeFate(fateOf(4)).text).toBe('not sent: over the token budget')
  expect(fateOf(13)).toEqual({ state: 'unprojected' })

  const items = chatItems(thread)
  expect(items.map((item) => item.kind)).toEqual([...Array(12).fill('message'), 'summary'])
})
