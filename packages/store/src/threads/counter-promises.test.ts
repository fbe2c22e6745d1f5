import { customTokenCounter, type TokenCounter } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { createMemoryBackedStores } from '../backends/in-memory/create-in-memory-stores'
import { openTestStores } from '../testing/test-database'

const words = customTokenCounter('words', (text) => text.split(' ').length, true)

for (const [name, open] of [
  ['IndexedDB', () => openTestStores('counter-promises', { counters: [pending.promise] }).threads],
  ['in memory', () => createMemoryBackedStores({ counters: [pending.promise] }).threads],
] as const) {
  describe(`a thread store given a counter's promise (${name})`, () => {
    it('stores no counts while it is pending, and the exact counts from the moment it resolves', async () => {
      pending.reset()
      const threads = open()
      const record = await threads.create()
      await threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'before the ranks arrived' } })
      pending.resolve(words)
      await pending.promise
      await threads.append(record.id, { kind: 'message', payload: { role: 'assistant', content: 'after they did' } })
      const [before, after] = (await threads.load(record.id)).entries
      // An estimate is never stored as a count: the entry is counted when projected instead.
      expect(before?.meta?.tokens).toBeUndefined()
      expect(after?.meta?.tokens).toEqual({ words: 3 + 3 })
    })
  })
}

const pending = {
  promise: Promise.resolve(words) as Promise<TokenCounter>,
  resolve: (_counter: TokenCounter) => {},
  reset() {
    this.promise = new Promise<TokenCounter>((resolve) => {
      this.resolve = resolve
    })
  },
}
