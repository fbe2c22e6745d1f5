import { createThread, definePolicy, InvalidEntryError, project, type Entry, type EntryInput, type ProjectionResult } from '@threadlens/core'
import { emptyThreadFacts, entryRecallTerms, foldThreadFacts } from '@threadlens/core/internal'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
// Core's random-thread generator: the awkward threads (late results, summaries, pins, resets) the projector's properties use.
import { actionsArbitrary, buildThread, policyOptionsArbitrary, textArbitrary } from '@threadlens/testing'
import { openTestStores } from '../testing/test-database'
import { deterministicOptions, testCounter } from '../testing/thread-store-contract'
import { createMemoryBackedStores } from '../backends/in-memory/create-in-memory-stores'
import type { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import type { SyncedEntry, ThreadStore } from './thread-store'
import { followThread } from '../testing/follow-thread'
import { toInput } from '../transfer/thread-jsonl'

// Fixed seed: every run checks the same cases; fast-check prints the seed and the shrunk case on failure.
const SEED = 20261129
const RUNS = 70

type NewItem =
  | { kind: 'message'; role: 'user' | 'assistant'; content: string }
  | { kind: 'pair'; name: string; answered: boolean; output: string }
  /** A result whose call no device has: never valid. */
  | { kind: 'orphan'; output: string }

/** A thread, where to keep, and what another device sent: new entries, some of the stored tail, some of the kept prefix, interleaved. */
const caseArbitrary = fc.record({
  actions: actionsArbitrary,
  // Most syncs place at the end (nothing pending here); the rest anywhere.
  atEnd: fc.boolean(),
  keepFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  tailMask: fc.array(fc.boolean(), { maxLength: 400 }),
  prefixMask: fc.array(fc.boolean(), { maxLength: 400 }),
  news: fc.array(
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('message' as const),
          role: fc.constantFrom('user' as const, 'assistant' as const),
          content: textArbitrary,
        }),
      },
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('pair' as const),
          name: fc.constantFrom('weather', 'search'),
          answered: fc.boolean(),
          output: textArbitrary,
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('orphan' as const), output: textArbitrary }) },
    ),
    { maxLength: 6 },
  ),
  mergeKeys: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 40, maxLength: 40 }),
  policyOptions: policyOptionsArbitrary,
})

const comparable = (entry: Entry) => ({
  id: entry.id,
  seq: entry.seq,
  kind: entry.kind,
  payload: entry.payload,
  refs: entry.refs,
  createdAt: entry.createdAt,
})
const withoutThread = (entry: Entry) => ({ ...comparable(entry), meta: entry.meta })

/** New entries as another device stored them: ids of their own, a foreign thread and seq, and a token count not to be trusted. */
function newEntries(news: readonly NewItem[]): SyncedEntry[] {
  const entries: SyncedEntry[] = []
  news.forEach((item, index) => {
    const common = { createdAt: 1_800_000_000_000 + index, threadId: 'elsewhere', seq: 1000 + index, meta: { tokens: { heuristic: 987_654 } } }
    if (item.kind === 'message') {
      entries.push({ ...common, id: `r${index}`, kind: 'message', payload: { role: item.role, content: item.content } })
      return
    }
    if (item.kind === 'orphan') {
      entries.push({
        ...common,
        id: `r${index}o`,
        kind: 'tool_result',
        payload: { name: 'weather', result: item.output },
        refs: { toolCallId: `missing-${index}` },
      })
      return
    }
    const refs = { callId: `sync-call-${index}`, toolCallId: `sync-${index}` }
    entries.push({ ...common, id: `r${index}c`, kind: 'tool_call', payload: { name: item.name, arguments: { q: item.output } }, refs })
    if (item.answered) entries.push({ ...common, id: `r${index}r`, kind: 'tool_result', payload: { name: item.name, result: item.output }, refs })
  })
  return entries
}

/** Interleaves groups, each kept in its own order, by the random keys. */
function interleave<T>(groups: readonly (readonly T[])[], keys: readonly number[]): T[] {
  let next = 0
  const keyed = groups.flatMap((group) => {
    const groupKeys = group.map(() => keys[next++ % keys.length] ?? 0).sort((a, b) => a - b)
    return group.map((item, position) => ({ item, key: groupKeys[position] as number, order: next + position }))
  })
  return keyed.sort((a, b) => a.key - b.key || a.order - b.order).map(({ item }) => item)
}

const projectionShape = (result: ProjectionResult) => ({
  messages: result.messages,
  includedSeqs: result.meta.includedSeqs,
  tokens: result.meta.tokens,
})

/** What only the IndexedDB backend keeps beside the entries: the row's facts and the recall terms, checked against the entries. */
async function checkDerivedRows(db: ThreadlensDB, id: string, entries: readonly Entry[]): Promise<void> {
  const row = await db.threads.get(id)
  expect(row?.facts).toEqual(foldThreadFacts(emptyThreadFacts, entries))
  const chunks = await db.recallTerms.where('[threadId+firstSeq]').between([id, 0], [id, Number.MAX_SAFE_INTEGER], true, true).toArray()
  const ids = chunks.flatMap((chunk) => chunk.ids)
  const terms = chunks.flatMap((chunk) => chunk.terms)
  expect(chunks.map((chunk) => chunk.firstSeq)).toEqual(
    chunks.map((_chunk, position) => chunks.slice(0, position).reduce((sum, each) => sum + each.ids.length, 0)),
  )
  expect(ids).toEqual(entries.map((entry) => entry.id))
  expect(terms).toEqual(entries.map((entry) => entryRecallTerms(entry)?.join(' ') ?? null))
}

type Backend = { readonly name: string; readonly open: () => { threads: ThreadStore; db?: ThreadlensDB } }
const backends: readonly Backend[] = [
  { name: 'in memory', open: () => createMemoryBackedStores(deterministicOptions()) },
  { name: 'IndexedDB (fake-indexeddb)', open: () => openTestStores('place-synced', deterministicOptions()) },
]

describe.each(backends)('placeSynced (property): $name', ({ open }) => {
  // long: one property with its model (the expected order, validity by core's Thread) and every check made of the outcome.
  it(`places entries as prefix + given + rest, or refuses and writes nothing (seed ${SEED})`, async () => {
    let refused = 0
    let rebased = 0
    let appended = 0
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ actions, atEnd, keepFraction, tailMask, prefixMask, news, mergeKeys, policyOptions }) => {
        const { threads, db } = open()
        const source = buildThread(actions)
        const { id } = await threads.create({ title: 'synced' })
        if (source.entries.length > 0) await threads.appendMany(id, source.entries.map(toInput))
        // The recall terms code loads with the first index: from then on every write keeps terms.
        if (db !== undefined) await threads.recallIndex(id)
        const before = (await threads.load(id)).entries
        const keep = atEnd ? before.length : Math.floor(keepFraction * (before.length + 1)) % (before.length + 1)
        const prefix = before.slice(0, keep)
        const tail = before.slice(keep)
        const fromTail = tail.filter((_entry, position) => tailMask[position] === true)
        const fromPrefix = prefix.filter((_entry, position) => prefixMask[position] === true).slice(0, 3)
        const fresh = newEntries(news)
        const given: SyncedEntry[] = interleave<SyncedEntry>([fromTail as SyncedEntry[], fromPrefix as SyncedEntry[], fresh], mergeKeys)

        // The model: what the thread must hold after, and whether core's Thread accepts it.
        const givenIds = new Set(given.map((entry) => entry.id))
        const prefixIds = new Set<string>(prefix.map((entry) => entry.id))
        const placedGiven = given.filter((entry) => !prefixIds.has(entry.id))
        const expectedIds = [
          ...prefix.map((entry) => entry.id),
          ...placedGiven.map((entry) => entry.id),
          ...tail.filter((entry) => !givenIds.has(entry.id)).map((entry) => entry.id),
        ]
        const bare = ({ id: entryId, kind, payload, refs, createdAt }: SyncedEntry | Entry) =>
          ({ id: entryId, kind, payload, refs, createdAt }) as EntryInput
        const byId = new Map<string, EntryInput>([...before, ...fresh].map((entry) => [entry.id as string, bare(entry)]))
        const reference = createThread({ id: 'reference' })
        let valid = true
        try {
          reference.appendMany(expectedIds.map((entryId) => byId.get(entryId) as EntryInput))
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidEntryError)
          valid = false
        }

        const recordBefore = await threads.get(id)
        const follower = followThread(threads, id, before)
        const outcome = await threads.placeSynced(id, keep, given).catch((error: unknown) => error)
        const after = (await threads.load(id)).entries
        if (!valid) {
          refused++
          expect(outcome).toBeInstanceOf(InvalidEntryError)
          expect((outcome as Error).message).toMatch(/synced entry \d+ of \d+|stored entry "/)
          expect(after).toEqual(before)
          expect(await threads.get(id)).toEqual(recordBefore)
          follower.stop()
          db?.close()
          return
        }
        if (outcome instanceof Error) throw outcome
        const result = outcome as Awaited<ReturnType<ThreadStore['placeSynced']>>
        // Order, gapless seqs, unique ids, stored content kept.
        expect(after.map((entry) => entry.id)).toEqual(expectedIds)
        expect(after.map((entry) => entry.seq)).toEqual(after.map((_entry, position) => position))
        expect(new Set(after.map((entry) => entry.id)).size).toBe(after.length)
        for (const entry of after) {
          const stored = before.find((each) => each.id === entry.id)
          if (stored !== undefined) expect({ ...entry, seq: 0 }).toEqual({ ...stored, seq: 0 })
        }
        // What the call says it did.
        const moved = after.filter((entry) => before.some((each) => each.id === entry.id && each.seq !== entry.seq)).length
        expect(result.moved).toBe(moved)
        if (moved > 0) rebased++
        else if (result.added.length > 0) appended++
        expect(result.added.map((entry) => entry.id)).toEqual(
          placedGiven.filter((entry) => !before.some((each) => each.id === entry.id)).map((entry) => entry.id),
        )
        expect(result.entries).toEqual(after.slice(keep))
        // Token counts are the store's own, never the sender's.
        for (const entry of result.added) expect(entry.meta?.tokens).toEqual({ heuristic: testCounter.countEntry({ ...entry, meta: {} }) })
        expect(await threads.get(id)).toMatchObject({ entryCount: after.length, lastSeq: after.length - 1, rev: recordBefore?.rev })
        // A live follower ends with what load() gives.
        await expect.poll(() => follower.entries().map(withoutThread), { timeout: 5_000 }).toEqual(after.map(withoutThread))
        expect(follower.rebases()).toBe(moved > 0 ? 1 : 0)
        follower.stop()
        // Export round-trips; a fork copies the placed order.
        const { threadId: copyId } = await threads.import(await threads.export(id))
        expect((await threads.load(copyId)).entries.map(withoutThread)).toEqual(after.map(withoutThread))
        if (after.length > 0) {
          const fork = await threads.fork(id, { atSeq: after.length - 1 })
          expect((await threads.load(fork.id)).entries.map((entry) => ({ ...comparable(entry), id: '' }))).toEqual(
            after.map((entry) => ({ ...comparable(entry), id: '' })),
          )
        }
        if (db !== undefined) {
          await checkDerivedRows(db, id, after)
          // A windowed load projects as the whole thread does.
          const policy = definePolicy(policyOptions)
          const whole = project({ thread: await threads.load(id), policy, counter: testCounter })
          const windowed = project({ thread: await threads.load(id, { window: { policy, counter: testCounter } }), policy, counter: testCounter })
          expect(projectionShape(windowed)).toEqual(projectionShape(whole))
        }
        db?.close()
      }),
      { seed: SEED, numRuns: RUNS },
    )
    // Not vacuous: the cases append, rebase and refuse, each often.
    expect({ appended: appended > RUNS / 8, rebased: rebased > RUNS / 8, refused: refused > RUNS / 20 }).toEqual({
      appended: true,
      rebased: true,
      refused: true,
    })
  }, 240_000)
})
