import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidEntryError } from '../errors/threadlens-error'
import { actionsArbitrary, buildThread } from '../testing/random-thread'
import type { Entry } from './entry'
import type { Thread, ThreadEvent } from './thread'
import { createThread, forkThread, ingestEntries } from './thread'
import { indexOfEntries } from './thread-index'

describe('Thread', () => {
  it('appends entries with gapless seqs, frozen, with ids and times from its sources', () => {
    let clock = 100
    let id = 0
    const thread = createThread({ id: 't1', now: () => clock++, createId: () => `e${id++}` })
    const first = thread.append({ kind: 'message', payload: { role: 'user', content: 'hi' } })
    const second = thread.append({ kind: 'message', payload: { role: 'assistant', content: 'hello' }, refs: { requestId: 'r1' } })
    expect(first).toEqual({ id: 'e0', threadId: 't1', seq: 0, kind: 'message', payload: { role: 'user', content: 'hi' }, refs: {}, createdAt: 100 })
    expect(second.seq).toBe(1)
    expect(second.refs).toEqual({ requestId: 'r1' })
    expect(thread.entries).toHaveLength(2)
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen(first.payload)).toBe(true)
    expect(() => {
      ;(first.payload as { content: string }).content = 'changed'
    }).toThrow(TypeError)
  })

  it("does not keep a reference to the caller's input", () => {
    const thread = createThread()
    const input = { kind: 'tool_call' as const, payload: { name: 'x', arguments: { list: [1] } }, refs: { toolCallId: 'a' } }
    thread.append(input)
    ;(input.payload.arguments.list as number[]).push(2)
    expect(thread.entries[0]?.payload).toEqual({ name: 'x', arguments: { list: [1] } })
  })

  it('rejects bad input with a typed error naming the field, and appends nothing', () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'hi' } })
    const bad = { kind: 'message', payload: { role: 'user', content: 42 } } as never
    expect(() => thread.append(bad)).toThrow(InvalidEntryError)
    try {
      thread.append(bad)
    } catch (error) {
      expect((error as InvalidEntryError).field).toBe('payload.content')
    }
    expect(thread.nextSeq).toBe(1)
  })

  it('appendMany is all or nothing', () => {
    const thread = createThread()
    expect(() =>
      thread.appendMany([
        { kind: 'message', payload: { role: 'user', content: 'one' } },
        { kind: 'message', payload: { role: 'user', content: 'two' } },
        { kind: 'summary', payload: { fromSeq: 0, toSeq: 9, content: 'covers the future' } },
      ]),
    ).toThrow(/toSeq 9 >= its own seq 2.*nothing was appended|its own seq 2/)
    expect(thread.entries).toHaveLength(0)
    expect(thread.index.userSeqs).toEqual([])
  })

  it('pairs tool calls and results: unknown, duplicate and twice-answered ids are refused', () => {
    const thread = createThread()
    const call = { kind: 'tool_call' as const, payload: { name: 'weather', arguments: {} }, refs: { callId: 'c1', toolCallId: 't1' } }
    const result = { kind: 'tool_result' as const, payload: { name: 'weather', result: 'sunny' }, refs: { toolCallId: 't1' } }
    expect(() => thread.append(result)).toThrow(/no tool call "t1"/)
    thread.append(call)
    expect(() => thread.append(call)).toThrow(/already exists/)
    thread.append(result)
    expect(() => thread.append(result)).toThrow(/already has a result/)
    expect(thread.index.unresolvedToolCallIds.size).toBe(0)
  })

  it('notifies subscribers once per append batch, and stops after unsubscribe', () => {
    const thread = createThread({ id: 't' })
    const events: ThreadEvent[] = []
    const unsubscribe = thread.subscribe((event) => events.push(event))
    thread.appendMany([
      { kind: 'message', payload: { role: 'user', content: 'a' } },
      { kind: 'message', payload: { role: 'assistant', content: 'b' } },
    ])
    unsubscribe()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'c' } })
    expect(events).toHaveLength(1)
    expect(events[0]?.type).toBe('entry-append')
    expect(events[0]?.entries.map((entry) => entry.seq)).toEqual([0, 1])
  })

  it('finds entries by kind, ref and seq range', () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'a' }, refs: { requestId: 'r1' } })
    thread.append({ kind: 'tool_call', payload: { name: 'x', arguments: {} }, refs: { requestId: 'r1', toolCallId: 't' } })
    thread.append({ kind: 'tool_result', payload: { name: 'x', result: 1 }, refs: { requestId: 'r1', toolCallId: 't' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'b' }, refs: { requestId: 'r2' } })
    expect(thread.byKind('message').map((entry) => entry.seq)).toEqual([0, 3])
    expect(thread.byRef('requestId', 'r1').map((entry) => entry.seq)).toEqual([0, 1, 2])
    expect(thread.slice(1, 2).map((entry) => entry.seq)).toEqual([1, 2])
    expect(thread.slice(2).map((entry) => entry.seq)).toEqual([2, 3])
    expect(thread.bySeq(3)?.payload).toEqual({ role: 'user', content: 'b' })
  })

  it('forks at a seq: a new thread with copies, the parent recorded, the original untouched', () => {
    const thread = createThread({ id: 'parent' })
    for (const content of ['a', 'b', 'c', 'd']) thread.append({ kind: 'message', payload: { role: 'user', content } })
    const fork = forkThread(thread, { atSeq: 1, id: 'child' })
    expect(fork.id).toBe('child')
    expect(fork.parent).toEqual({ threadId: 'parent', atSeq: 1 })
    expect(fork.entries.map((entry) => [entry.seq, entry.threadId, entry.payload])).toEqual([
      [0, 'child', { role: 'user', content: 'a' }],
      [1, 'child', { role: 'user', content: 'b' }],
    ])
    expect(fork.entries[0]?.id).not.toBe(thread.entries[0]?.id)
    fork.append({ kind: 'message', payload: { role: 'user', content: 'other branch' } })
    expect(thread.entries).toHaveLength(4)
    expect(() => forkThread(thread, { atSeq: 9 })).toThrow(InvalidEntryError)
  })

  it("forks with the parent's clock and id source, and refuses a windowed thread", () => {
    let next = 0
    const thread = createThread({ id: 'clocked', now: () => 42, createId: () => `id-${next++}` })
    for (const content of ['a', 'b']) thread.append({ kind: 'message', payload: { role: 'user', content } })
    const fork = forkThread(thread, { atSeq: 0 })
    expect(fork.id).toBe('id-2')
    expect(fork.entries.map((entry) => entry.id)).toEqual(['id-3'])
    const added = fork.append({ kind: 'message', payload: { role: 'user', content: 'c' } })
    expect([added.id, added.createdAt]).toEqual(['id-4', 42])
    const window = createThread({ id: 'clocked', entries: thread.entries.slice(1) })
    expect(() => forkThread(window, { atSeq: 1 })).toThrow(/cannot fork a windowed thread/)
  })

  it('rehydrates from stored entries, refusing gaps and foreign entries', () => {
    const source = createThread({ id: 's' })
    for (const content of ['a', 'b', 'c']) source.append({ kind: 'message', payload: { role: 'user', content } })
    const copy = createThread({ id: 's', entries: source.entries })
    expect(copy.nextSeq).toBe(3)
    const window = createThread({ id: 's', entries: source.entries.slice(1) })
    expect(window.firstSeq).toBe(1)
    expect(window.bySeq(2)?.payload).toEqual({ role: 'user', content: 'c' })
    expect(() => createThread({ id: 's', entries: [source.entries[0]!, source.entries[2]!] })).toThrow(/gapless/)
    expect(() => createThread({ id: 'other', entries: source.entries })).toThrow(/belongs to thread/)
  })

  it('keeps its index equal to one rebuilt from scratch (random threads)', () => {
    fc.assert(
      fc.property(actionsArbitrary, (actions) => {
        const thread = buildThread(actions)
        const rebuilt = indexOfEntries([...thread.entries])
        expect(rebuilt).toEqual(thread.index)
        for (const seq of thread.index.userSeqs) expect(thread.bySeq(seq)?.kind).toBe('message')
      }),
      { numRuns: 300, seed: 20261122 },
    )
  })
})

describe('ingestEntries', () => {
  it('mirrors committed entries: skips ones it has, refuses gaps and conflicts, notifies', () => {
    const source = createThread({ id: 'm' })
    for (const content of ['a', 'b', 'c']) source.append({ kind: 'message', payload: { role: 'user', content } })
    const mirror = createThread({ id: 'm', entries: source.entries.slice(0, 1) })
    const seen: number[] = []
    mirror.subscribe((event) => seen.push(...event.entries.map((entry) => entry.seq)))
    expect(ingestEntries(mirror, source.entries).map((entry) => entry.seq)).toEqual([1, 2])
    expect(ingestEntries(mirror, source.entries)).toEqual([])
    expect(seen).toEqual([1, 2])
    const other = createThread({ id: 'm' })
    other.append({ kind: 'message', payload: { role: 'user', content: 'x' } })
    expect(() => ingestEntries(mirror, other.entries)).toThrow(/already taken/)
    const ahead = createThread({ id: 'm', entries: source.entries })
    ahead.append({ kind: 'message', payload: { role: 'user', content: 'd' } })
    ahead.append({ kind: 'message', payload: { role: 'user', content: 'e' } })
    expect(() => ingestEntries(mirror, ahead.entries.slice(4))).toThrow(/expected seq 3/)
    expect(() => ingestEntries(mirror, [{ ...source.entries[0]!, threadId: 'n' } as Entry])).toThrow(/belongs to thread n/)
    expect(mirror.index.userSeqs).toEqual([0, 1, 2])
  })

  it('refuses an object that only looks like a thread, with a TypeError', () => {
    const lookalike = { id: 'm', nextSeq: 1, firstSeq: 0, entries: [] } as unknown as Thread
    expect(() => ingestEntries(lookalike, [])).toThrow(TypeError)
    expect(() => forkThread(lookalike, { atSeq: 0 })).toThrow(/expected a Thread/)
  })
})
