import { createTokenCounter, definePolicy, project, type EntryInput } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import type { UnreadableEntryError } from '../errors'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'

const inputs: EntryInput[] = [
  { kind: 'message', payload: { role: 'user', content: 'weather in Oslo?' } },
  { kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'm1', toolCallId: 'w1' } },
  { kind: 'tool_result', payload: { name: 'weather', result: { celsius: 4 } }, refs: { toolCallId: 'w1' } },
  { kind: 'message', payload: { role: 'assistant', content: 'It is 4 °C.' } },
  { kind: 'message', payload: { role: 'user', content: 'thanks' } },
]

describe('a database holding entries an earlier version wrote badly (real Chromium)', () => {
  it('still loads, projects, exports and imports: each bad entry is reported and shown as a placeholder', async () => {
    const db = new ThreadlensDB({ name: `threadlens-browser-unreadable-${crypto.randomUUID()}` })
    const reports: UnreadableEntryError[] = []
    const threads = createThreadStore(db, { onUnreadableEntry: (error) => reports.push(error) })
    const { id } = await threads.create({ title: 'damaged' })
    const stored = await threads.appendMany(id, inputs)

    // Written straight into IndexedDB, as an earlier version without the entry rules could have.
    const circular: Record<string, unknown> = { city: 'Oslo' }
    circular['self'] = circular
    const [call, result, answer] = [stored[1], stored[2], stored[3]]
    await db.entries.put({ ...call, payload: { name: 'weather', arguments: circular } } as never)
    await db.entries.put({ ...result, payload: { name: 'weather', result: new Map([['celsius', 4]]) } } as never)
    await db.entries.put({ ...answer, payload: { role: 'assistant', content: new Date(0) } } as never)

    const thread = await threads.load(id)
    expect(thread.entries.map((entry) => entry.seq)).toEqual([0, 1, 2, 3, 4])
    expect(reports.map((report) => [report.seq, report.field])).toEqual([
      [1, 'payload.arguments.self'],
      [2, 'payload.result'],
      [3, 'payload.content'],
    ])
    expect(reports[0]?.rule).toMatch(/circular/)
    const placeholderCall = thread.entries[1]
    expect(placeholderCall).toMatchObject({
      kind: 'tool_call',
      refs: { toolCallId: 'w1' },
      meta: { unreadable: { field: 'payload.arguments.self' } },
    })
    expect(thread.entries[2]).toMatchObject({
      kind: 'tool_result',
      refs: { toolCallId: 'w1' },
      payload: { error: expect.stringMatching(/could not be read/) },
    })
    expect(thread.entries[4]).toEqual(stored[4])

    // The placeholders project like any entry: the pair stays together and the notice is visible.
    const projection = project({
      thread,
      policy: definePolicy({ maxInputTokens: 8000, reserveOutputTokens: 500 }),
      counter: await createTokenCounter('heuristic'),
    })
    const text = JSON.stringify(projection.messages)
    expect(text).toContain('entry 1 could not be read')
    expect(text).toContain('entry 3 could not be read')
    expect(text).toContain('thanks')

    const exported = await threads.export(id)
    const copy = await threads.load((await threads.import(exported)).threadId)
    expect(copy.entries.map(({ threadId: _threadId, ...rest }) => rest)).toEqual(thread.entries.map(({ threadId: _threadId, ...rest }) => rest))
    expect((await threads.appendMany(id, [{ kind: 'message', payload: { role: 'assistant', content: 'still writable' } }]))[0]?.seq).toBe(5)
    db.close()
  })
})
