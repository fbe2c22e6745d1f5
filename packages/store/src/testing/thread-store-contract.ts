import { customTokenCounter, InvalidEntryError, InvalidIdError, Thread, type EntryInput } from '@threadlens/core'
import { heuristicCount } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { InvalidMemoryOperationError, RevisionConflictError } from '@threadlens/core'
import { ImportValidationError, InvalidStoreOptionsError, ThreadFullError, ThreadNotFoundError } from '../errors'
import type { MemoryStore } from '../memory/memory-store'
import type { ThreadStore, ThreadStoreEvent, ThreadStoreOptions } from '../threads/thread-store'

/** What a contract run needs: fresh stores per test. */
export type StoreFactory = (options: ThreadStoreOptions) => Promise<{ threads: ThreadStore; memory: MemoryStore }>

export const testCounter = customTokenCounter('heuristic', heuristicCount, false)

export function deterministicOptions(): ThreadStoreOptions & { counters: (typeof testCounter)[] } {
  let clock = 1_700_000_000_000
  let id = 0
  return { counters: [testCounter], now: () => clock++, createId: () => `id-${id++}` }
}

const user = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'user', content } })
const assistant = (content: string): EntryInput => ({ kind: 'message', payload: { role: 'assistant', content } })
const call = (toolCallId: string): EntryInput => ({
  kind: 'tool_call',
  payload: { name: 'weather', arguments: { city: 'Oslo' } },
  refs: { callId: `c-${toolCallId}`, toolCallId },
})
const result = (toolCallId: string): EntryInput => ({
  kind: 'tool_result',
  payload: { name: 'weather', result: { celsius: 4 } },
  refs: { toolCallId },
})

/** Waits until `events` has at least `count` items (events arrive asynchronously, after commit). */
export async function eventsReach(events: readonly ThreadStoreEvent[], count: number): Promise<void> {
  await expect.poll(() => events.length).toBeGreaterThanOrEqual(count)
}

/** The behaviour both the IndexedDB stores and the in-memory fallback must show, word for word. */
export function describeStoreContract(name: string, makeStores: StoreFactory): void {
  describe(`${name}: thread store contract`, () => {
    it('creates, gets and lists threads, most recently updated first', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const a = await threads.create({ title: 'A', metadata: { color: 'red' } })
      const b = await threads.create({ title: 'B' })
      expect(a).toMatchObject({ title: 'A', entryCount: 0, lastSeq: -1, parent: null, metadata: { color: 'red' } })
      expect(await threads.get(a.id)).toEqual(a)
      expect(await threads.get('missing')).toBeUndefined()
      await threads.append(a.id, user('hi'))
      expect((await threads.list()).map((thread) => thread.id)).toEqual([a.id, b.id])
    })

    it('appends with gapless seqs and stores token counts of the configured counters', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      const first = await threads.append(id, user('hello there'))
      const many = await threads.appendMany(id, [assistant('hi'), call('w1'), result('w1')])
      expect([first, ...many].map((entry) => entry.seq)).toEqual([0, 1, 2, 3])
      expect(first.meta?.tokens?.['heuristic']).toBe(testCounter.countEntry({ ...first, meta: {} }))
      const record = await threads.get(id)
      expect(record).toMatchObject({ entryCount: 4, lastSeq: 3 })
      const loaded = await threads.load(id)
      expect(loaded).toBeInstanceOf(Thread)
      expect(loaded.entries).toEqual([first, ...many])
    })

    it('reads the entries from a seq on (entriesFrom), the same as the tail of load', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      await threads.appendMany(id, [user('one'), assistant('two'), call('w1'), result('w1')])
      const loaded = (await threads.load(id)).entries
      for (const fromSeq of [0, 2, 3, 4, 9]) expect(await threads.entriesFrom(id, fromSeq)).toEqual(loaded.slice(fromSeq))
      await expect(threads.entriesFrom(id, -1)).rejects.toThrow(/fromSeq/)
      await expect(threads.entriesFrom(id, 1.5)).rejects.toThrow(/fromSeq/)
      await expect(threads.entriesFrom('missing', 0)).rejects.toThrow(/missing/)
    })

    it('an invalid batch appends nothing, wherever the bad entry is', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      await threads.append(id, user('one'))
      const bad = { kind: 'message', payload: { role: 'robot', content: 'x' } } as unknown as EntryInput
      await expect(threads.appendMany(id, [user('two'), bad])).rejects.toBeInstanceOf(InvalidEntryError)
      await expect(threads.appendMany(id, [user('two'), result('nope')])).rejects.toThrow(/no tool call "nope"/)
      await expect(threads.appendMany(id, [call('x'), call('x')])).rejects.toThrow(/already exists/)
      expect((await threads.get(id))?.lastSeq).toBe(0)
      expect((await threads.load(id)).entries).toHaveLength(1)
    })

    it('refuses what is not plain JSON with InvalidEntryError naming the path, writes nothing, and the thread still loads and exports', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      await threads.append(id, user('before'))
      const circular: Record<string, unknown> = { x: 1 }
      circular['self'] = circular
      const circularCall = { kind: 'tool_call', payload: { name: 't', arguments: circular }, refs: { toolCallId: 'c' } } as unknown as EntryInput
      const error = await threads.append(id, circularCall).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(InvalidEntryError)
      expect(error).toMatchObject({ field: 'payload.arguments.self' })
      expect((error as Error).message).toMatch(/circular/)
      let deep: unknown = 1
      for (let level = 0; level < 10_000; level++) deep = { a: deep }
      const deepCall = { kind: 'tool_call', payload: { name: 't', arguments: deep }, refs: { toolCallId: 'd' } } as unknown as EntryInput
      await expect(threads.appendMany(id, [user('x'), deepCall])).rejects.toThrow(/deeper than the 64-level limit/)
      await expect(threads.append(id, { kind: 'message', payload: { role: 'user', content: 'x'.repeat(10_000_000) } })).rejects.toThrow(/byte limit/)
      await expect(threads.appendMany(id, 'not an array' as never)).rejects.toBeInstanceOf(InvalidEntryError)
      await expect(threads.append(42 as never, user('x'))).rejects.toBeInstanceOf(InvalidIdError)
      await expect(threads.append('has spaces', user('x'))).rejects.toBeInstanceOf(InvalidIdError)
      await expect(threads.append(id, { ...user('x'), id: { evil: true } } as never)).rejects.toBeInstanceOf(InvalidEntryError)
      expect((await threads.get(id))?.lastSeq).toBe(0)
      expect((await threads.load(id)).entries).toHaveLength(1)
      expect((await threads.export(id)).split('\n')).toHaveLength(3)
    })

    it('updates the record with revisions: rename, tags, model, policy name, metadata; a stale revision conflicts and writes nothing', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const created = await threads.create({ title: 'draft', tags: ['a', 'a', 'b'], model: 'gpt-4o' })
      expect(created).toMatchObject({ rev: 0, title: 'draft', tags: ['a', 'b'], model: 'gpt-4o', policyName: null })
      const renamed = await threads.rename(created.id, 'Trip to Oslo', { expectedRev: 0 })
      expect(renamed).toMatchObject({ rev: 1, title: 'Trip to Oslo', tags: ['a', 'b'] })
      const updated = await threads.update(created.id, { tags: ['travel'], policyName: 'balanced', model: null, metadata: { pinned: true } })
      expect(updated).toMatchObject({
        rev: 2,
        title: 'Trip to Oslo',
        tags: ['travel'],
        model: null,
        policyName: 'balanced',
        metadata: { pinned: true },
      })
      // Appends change the record's times and counts, not its revision.
      await threads.append(created.id, user('hi'))
      expect((await threads.get(created.id))?.rev).toBe(2)
      const conflict = await threads.rename(created.id, 'stale', { expectedRev: 1 }).catch((error: unknown) => error)
      expect(conflict).toBeInstanceOf(RevisionConflictError)
      expect(conflict).toMatchObject({
        target: { kind: 'thread-record', threadId: created.id },
        expected: 1,
        actual: 2,
        current: { title: 'Trip to Oslo', rev: 2 },
      })
      expect((await threads.get(created.id))?.title).toBe('Trip to Oslo')
      await expect(threads.update(created.id, { title: 'x'.repeat(10_001) })).rejects.toBeInstanceOf(InvalidStoreOptionsError)
      await expect(threads.update(created.id, { tags: [''] })).rejects.toBeInstanceOf(InvalidStoreOptionsError)
      await expect(threads.update(created.id, { metadata: { when: new Date(0) } as never })).rejects.toThrow(/Date/)
      await expect(threads.update('missing', { title: 'x' })).rejects.toBeInstanceOf(ThreadNotFoundError)
      // Export and import keep the record fields.
      const copy = await threads.get((await threads.import(await threads.export(created.id))).threadId)
      expect(copy).toMatchObject({ title: 'Trip to Oslo', tags: ['travel'], model: null, policyName: 'balanced', metadata: { pinned: true }, rev: 0 })
      const fork = await threads.fork(created.id, { atSeq: 0 })
      expect(fork).toMatchObject({ tags: ['travel'], policyName: 'balanced', rev: 0 })
    })

    it('keeps a live thread list: the whole list at the start, then after every create, append, update and delete', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const lists: string[][] = []
      const stop = threads.subscribeList((event) => {
        if (event.type === 'list-update') lists.push(event.threads.map((thread) => `${thread.title}:${thread.entryCount}`))
      })
      await expect.poll(() => lists.length).toBeGreaterThanOrEqual(1)
      expect(lists[0]).toEqual([])
      const a = await threads.create({ title: 'A' })
      await expect.poll(() => lists.at(-1)).toEqual(['A:0'])
      const b = await threads.create({ title: 'B' })
      await expect.poll(() => lists.at(-1)).toEqual(['B:0', 'A:0'])
      await threads.append(a.id, user('hi'))
      await expect.poll(() => lists.at(-1)).toEqual(['A:1', 'B:0'])
      await threads.rename(b.id, 'B2')
      await expect.poll(() => lists.at(-1)).toEqual(['B2:0', 'A:1'])
      await threads.delete(a.id)
      await expect.poll(() => lists.at(-1)).toEqual(['B2:0'])
      stop()
      const seen = lists.length
      await threads.create({ title: 'after stop' })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(lists).toHaveLength(seen)
    })

    it('with records: true, a thread subscription hears the record at the start and after each rename, not after appends', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create({ title: 'first' })
      const heard: string[] = []
      const plain: string[] = []
      const stops = [
        threads.subscribe(
          id,
          (event) => heard.push(event.type === 'record-update' ? `record ${event.record.title}@${event.record.rev}` : event.type),
          { afterSeq: -1, records: true },
        ),
        threads.subscribe(id, (event) => plain.push(event.type), { afterSeq: -1 }),
      ]
      await expect.poll(() => heard).toEqual(['record first@0'])
      await threads.append(id, user('hi'))
      await expect.poll(() => heard).toEqual(['record first@0', 'entry-append'])
      await threads.rename(id, 'second')
      await expect.poll(() => heard).toEqual(['record first@0', 'entry-append', 'record second@1'])
      await threads.append(id, user('again'))
      await expect.poll(() => heard.at(-1)).toBe('entry-append')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(heard).toEqual(['record first@0', 'entry-append', 'record second@1', 'entry-append'])
      // Without the option, no record events.
      expect(plain).toEqual(['entry-append', 'entry-append'])
      for (const stop of stops) stop()
    })

    it('refuses an append or update whose export the store could not import again, and writes nothing', async () => {
      const { threads } = await makeStores({ ...deterministicOptions(), importLimits: { maxEntries: 3, maxBytes: 4_000 } })
      const { id } = await threads.create({ title: 'small' })
      await threads.appendMany(id, [user('one'), user('two')])
      await expect(threads.appendMany(id, [user('three'), user('four')])).rejects.toMatchObject({ name: 'ThreadFullError', limit: 'entries', max: 3 })
      await threads.append(id, user('three'))
      const other = await threads.create()
      await expect(threads.append(other.id, user('x'.repeat(4_000)))).rejects.toMatchObject({ name: 'ThreadFullError', limit: 'bytes', max: 4_000 })
      await expect(threads.update(other.id, { title: 'y'.repeat(5_000) })).rejects.toBeInstanceOf(ThreadFullError)
      expect(await threads.get(other.id)).toMatchObject({ entryCount: 0, title: '', rev: 0 })
      // Right at the limits, the export imports again.
      const full = await threads.export(id)
      expect(full.length).toBeLessThanOrEqual(4_000)
      expect((await threads.load((await threads.import(full)).threadId)).entries).toHaveLength(3)
      await expect(threads.create({ metadata: { blob: 'z'.repeat(1024 * 1024) } })).rejects.toBeInstanceOf(InvalidStoreOptionsError)
    })

    it('enforces the append rules against what is already stored', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      await threads.appendMany(id, [user('q'), call('a')])
      await expect(threads.append(id, call('a'))).rejects.toThrow(/already exists/)
      await threads.append(id, result('a'))
      await expect(threads.append(id, result('a'))).rejects.toThrow(/already has a result/)
      await expect(threads.append(id, { kind: 'summary', payload: { fromSeq: 0, toSeq: 3, content: 's' } })).rejects.toThrow(/earlier entries/)
      await expect(threads.append(id, { kind: 'context_op', payload: { op: 'pin', target: 9, reason: 'r' } })).rejects.toThrow(/earlier entry/)
      expect((await threads.get(id))?.lastSeq).toBe(2)
    })

    it('refuses to append to a thread that does not exist', async () => {
      const { threads } = await makeStores(deterministicOptions())
      await expect(threads.append('nope', user('x'))).rejects.toBeInstanceOf(ThreadNotFoundError)
    })

    it('forks entries 0..atSeq under new ids and records the parent', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const parent = await threads.create({ title: 'trip' })
      const entries = await threads.appendMany(parent.id, [user('a'), assistant('b'), user('c')])
      const child = await threads.fork(parent.id, { atSeq: 1 })
      expect(child).toMatchObject({ title: 'trip', entryCount: 2, lastSeq: 1, parent: { threadId: parent.id, atSeq: 1 } })
      const loaded = await threads.load(child.id)
      expect(loaded.parent).toEqual({ threadId: parent.id, atSeq: 1 })
      expect(loaded.entries.map((entry) => entry.payload)).toEqual(entries.slice(0, 2).map((entry) => entry.payload))
      expect(loaded.entries.map((entry) => entry.id)).not.toContain(entries[0]?.id)
      await expect(threads.fork(parent.id, { atSeq: 3 })).rejects.toBeInstanceOf(InvalidEntryError)
      expect((await threads.append(child.id, user('d'))).seq).toBe(2)
    })

    it('deletes one thread, and eraseAll deletes everything including memory', async () => {
      const { threads, memory } = await makeStores(deterministicOptions())
      const a = await threads.create()
      const b = await threads.create()
      await threads.append(a.id, user('x'))
      await threads.delete(a.id)
      await threads.delete(a.id)
      expect(await threads.get(a.id)).toBeUndefined()
      await expect(threads.load(a.id)).rejects.toBeInstanceOf(ThreadNotFoundError)
      await memory.world.put('agent', 'city', 'Oslo')
      await threads.eraseAll()
      expect(await threads.list()).toEqual([])
      expect(await threads.get(b.id)).toBeUndefined()
      expect((await memory.get('agent')).rev).toBe(0)
      // The store keeps working after an erase.
      const c = await threads.create()
      expect((await threads.append(c.id, user('again'))).seq).toBe(0)
    })

    it('tells subscribers about committed appends in order, and never about a rejected batch', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create()
      await threads.append(id, user('before'))
      const events: ThreadStoreEvent[] = []
      const stop = threads.subscribe(id, (event) => events.push(event), { afterSeq: -1 })
      await eventsReach(events, 1)
      await threads.append(id, user('one'))
      await expect(threads.appendMany(id, [user('bad'), result('missing')])).rejects.toThrow()
      await threads.appendMany(id, [user('two'), user('three')])
      await expect
        .poll(() => events.flatMap((event) => (event.type === 'entry-append' ? event.entries.map((entry) => entry.seq) : [])))
        .toEqual([0, 1, 2, 3])
      const contents = events.flatMap((event) =>
        event.type === 'entry-append' ? event.entries.map((entry) => (entry.payload as { content: string }).content) : [],
      )
      expect(contents).not.toContain('bad')
      await threads.delete(id)
      await expect.poll(() => events.some((event) => event.type === 'thread-delete')).toBe(true)
      stop()
    })

    it('exports JSONL and imports it back as a new thread with the same content', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const { id } = await threads.create({ title: 'Trip', metadata: { tag: 'x' } })
      await threads.appendMany(id, [
        user('q'),
        call('w'),
        result('w'),
        assistant('a'),
        { kind: 'summary', payload: { fromSeq: 0, toSeq: 2, content: 's' } },
      ])
      const text = await threads.export(id)
      const lines = text.trimEnd().split('\n')
      expect(JSON.parse(lines[0] as string)).toMatchObject({ format: 'threadlens.thread', version: 1, entryCount: 5 })
      expect(lines).toHaveLength(6)
      const { threadId: copyId } = await threads.import(text)
      expect(copyId).not.toBe(id)
      const original = await threads.load(id)
      const copy = await threads.load(copyId)
      expect(copy.entries.map(({ threadId: _t, ...rest }) => rest)).toEqual(original.entries.map(({ threadId: _t, ...rest }) => rest))
      expect(await threads.get(copyId)).toMatchObject({ title: 'Trip', metadata: { tag: 'x' }, entryCount: 5 })
    })

    it('imports an OpenAI-style messages array', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const messages = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: '4°C' },
        { role: 'assistant', content: 'Cold.' },
      ]
      const { threadId: fromArray, changes } = await threads.import(messages)
      const { threadId: fromText } = await threads.import(JSON.stringify(messages), { title: 'chat' })
      for (const id of [fromArray, fromText]) {
        const thread = await threads.load(id)
        expect(thread.entries.map((entry) => entry.kind)).toEqual(['message', 'tool_call', 'tool_result', 'message'])
      }
      expect(await threads.get(fromText)).toMatchObject({ title: 'chat', metadata: { importedFrom: 'openai-chat', systemPrompt: 'Be brief.' } })
      expect(changes).toEqual([])
      await expect(threads.import([{ role: 'tool', tool_call_id: 'zz', content: 'x' }])).rejects.toBeInstanceOf(ImportValidationError)
    })

    it('reports what importing a recorded messages array changed, and stores what it kept', async () => {
      const { threads } = await makeStores(deterministicOptions())
      const call = (id: string, text: string) => ({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: text } }],
      })
      const { threadId, changes } = await threads.import([
        { role: 'user', content: 'orders?' },
        call('c1', '{"order": 12345678901234567890}'),
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: [
            { type: 'text', text: 'shipped' },
            { type: 'text', text: 'today' },
          ],
        },
        call('c1', ''),
        { role: 'tool', tool_call_id: 'c1', content: 'none' },
      ])
      expect(changes.map((change) => [change.index, change.kind])).toEqual([
        [1, 'unsafe-integer'],
        [3, 'tool-call-id-renamed'],
        [3, 'empty-arguments'],
        [4, 'tool-call-id-renamed'],
      ])
      const { entries } = await threads.load(threadId)
      expect(entries.map((entry) => entry.payload)).toEqual([
        { role: 'user', content: 'orders?' },
        { name: 'lookup', arguments: { order: '12345678901234567890' }, argumentsText: '{"order": 12345678901234567890}' },
        {
          name: 'lookup',
          result: 'shipped\ntoday',
          parts: [
            { type: 'text', text: 'shipped' },
            { type: 'text', text: 'today' },
          ],
        },
        { name: 'lookup', arguments: {} },
        { name: 'lookup', result: 'none' },
      ])
      expect(entries.map((entry) => entry.meta?.originalToolCallId)).toEqual([undefined, undefined, undefined, 'c1', 'c1'])
    })
  })

  describe(`${name}: memory store contract`, () => {
    it('starts every memory with empty tasks and world at rev 0', async () => {
      const { memory } = await makeStores(deterministicOptions())
      const fresh = await memory.get('agent')
      expect(fresh).toMatchObject({
        id: 'agent',
        rev: 0,
        spaces: { tasks: { kind: 'list', data: [], rev: 0 }, world: { kind: 'map', data: {}, rev: 0 } },
      })
    })

    it('bumps the container rev and the space rev on every write, and refuses stale revs', async () => {
      const { memory } = await makeStores(deterministicOptions())
      const one = await memory.world.put('agent', 'city', 'Oslo', { expectedRev: 0 })
      expect(one.rev).toBe(1)
      expect(one.spaces.world.rev).toBe(1)
      const two = await memory.tasks.add('agent', 'pack')
      expect(two.rev).toBe(2)
      expect(two.spaces.world.rev).toBe(1)
      expect(two.spaces.tasks.rev).toBe(2)
      const conflict = await memory.world.put('agent', 'city', 'Bergen', { expectedRev: 0 }).catch((error: unknown) => error)
      expect(conflict).toBeInstanceOf(RevisionConflictError)
      expect(conflict).toMatchObject({
        expected: 0,
        actual: 1,
        target: { kind: 'memory-space', space: 'world' },
        current: { data: { city: 'Oslo' } },
      })
      expect(await memory.world.get('agent', 'city')).toBe('Oslo')
      expect((await memory.get('agent')).rev).toBe(2)
    })

    it('runs the task helpers', async () => {
      const { memory } = await makeStores(deterministicOptions())
      await memory.tasks.add('a', 'one', { id: 't1' })
      await memory.tasks.add('a', 'three', { id: 't3' })
      await memory.tasks.insert('a', 1, 'two', { id: 't2' })
      expect((await memory.tasks.next('a'))?.id).toBe('t1')
      await memory.tasks.complete('a', 't1')
      expect((await memory.tasks.next('a'))?.id).toBe('t2')
      await memory.tasks.reorder('a', ['t3', 't2', 't1'])
      await memory.tasks.remove('a', 't2')
      expect((await memory.tasks.open('a')).map((task) => task.id)).toEqual(['t3'])
      expect((await memory.get('a')).spaces.tasks.data).toEqual([
        { id: 't3', text: 'three', status: 'open' },
        { id: 't1', text: 'one', status: 'done' },
      ])
      await expect(memory.tasks.complete('a', 'missing')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      await expect(memory.tasks.reorder('a', ['t3'])).rejects.toBeInstanceOf(InvalidMemoryOperationError)
    })

    it('keeps built-in spaces, and creates, updates and deletes custom ones', async () => {
      const { memory } = await makeStores(deterministicOptions())
      await expect(memory.deleteSpace('a', 'tasks')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      await expect(memory.deleteSpace('a', 'world')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      await memory.createSpace('a', 'notes', 'list', { metadata: { render: true } })
      const updated = await memory.update('a', 'notes', (data) => [...(data as readonly string[]), 'remember the milk'])
      expect(updated.spaces['notes']).toMatchObject({ kind: 'list', data: ['remember the milk'], metadata: { render: true } })
      await expect(memory.createSpace('a', 'notes', 'map')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      await expect(memory.createSpace('a', '__proto__', 'map')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      await expect(memory.update('a', 'world', () => ({ bad: new Date(0) }) as never)).rejects.toThrow(/at bad: a Date is not JSON data/)
      await expect(memory.update('a', 'world', () => ({ list: [undefined] }) as never)).rejects.toBeInstanceOf(InvalidMemoryOperationError)
      // An undefined property is left out, as JSON.stringify does.
      expect((await memory.update('a', 'world', () => ({ kept: 1, gone: undefined }) as never)).spaces.world.data).toStrictEqual({ kept: 1 })
      const removed = await memory.deleteSpace('a', 'notes')
      expect(removed.spaces['notes']).toBeUndefined()
      expect(Object.keys(removed.spaces).sort()).toEqual(['tasks', 'world'])
    })

    it('answers a query over the stored memory: its tasks, map entries and list items, best first', async () => {
      const { memory } = await makeStores(deterministicOptions())
      expect(await memory.query('a', 'ferry')).toEqual([])
      await memory.tasks.add('a', 'Book the ferry to Bergen', { id: 't1' })
      await memory.world.put('a', 'destination', 'Bergen by ferry')
      await memory.createSpace('a', 'notes', 'list')
      await memory.update('a', 'notes', () => ['ferry leaves at nine', 'hotel booked'])
      const matches = await memory.query('a', 'ferry')
      // Equally good matches keep the order of the spaces.
      expect(matches.map((match) => [match.space, match.key ?? match.index])).toEqual([
        ['tasks', 0],
        ['world', 'destination'],
        ['notes', 0],
      ])
      expect(matches[0]).toMatchObject({ text: '[ ] t1: Book the ferry to Bergen', terms: ['ferry'] })
      expect((await memory.query('a', 'hotel', { spaces: ['notes'], topK: 1 })).map((match) => match.text)).toEqual(['"hotel booked"'])
      expect(await memory.query('a', 'the and of')).toEqual([])
      expect((await memory.get('a')).rev).toBe(4) // reading wrote nothing
      await expect(memory.query('bad id!', 'ferry')).rejects.toBeInstanceOf(InvalidMemoryOperationError)
    })

    it('tells subscribers about committed memory writes', async () => {
      const { memory } = await makeStores(deterministicOptions())
      const revs: number[] = []
      const stop = memory.subscribe('a', (event) => {
        if (event.type === 'memory-update') revs.push(event.memory.rev)
      })
      await memory.world.put('a', 'k', 1)
      await memory.world.put('a', 'k', 2)
      await expect.poll(() => revs.at(-1)).toBe(2)
      stop()
    })
  })
}
