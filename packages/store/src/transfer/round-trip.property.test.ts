import { type Entry, type EntryInput, type JsonObject, type JsonValue } from '@threadlens/core'
import { utf8Length } from '@threadlens/core/internal'
import { entryLimits } from '@threadlens/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { awkwardJsonArbitrary, nested, actionsArbitrary, buildThread } from '@threadlens/testing'
import { openTestStores } from '../testing/test-database'
import { deterministicOptions } from '../testing/thread-store-contract'

const SEED = 20261123

/** A message whose JSON is exactly as large as append allows: `text` then ASCII padding. */
function messageAtSizeLimit(text: string): EntryInput {
  const bare: EntryInput = { kind: 'message', payload: { role: 'assistant', content: text } }
  const room = entryLimits.maxEntryBytes - entryLimits.reservedBytes - utf8Length(JSON.stringify(bare))
  return { kind: 'message', payload: { role: 'assistant', content: text + 'x'.repeat(room) } }
}

/** Tool arguments as deep as an entry may be (entry 1, payload 2, arguments 3 … 64), with an awkward value at the bottom. */
function callAtDepthLimit(leaf: JsonValue, toolCallId: string): EntryInput[] {
  return [
    {
      kind: 'tool_call',
      payload: { name: 'deep', arguments: nested(entryLimits.maxDepth - 2 - levelsOf(leaf), leaf) as JsonObject },
      refs: { toolCallId },
    },
    { kind: 'tool_result', payload: { name: 'deep', result: leaf }, refs: { toolCallId } },
  ]
}

/** Levels of objects and arrays in a (small) value: 0 for a primitive. */
function levelsOf(value: JsonValue): number {
  if (typeof value !== 'object' || value === null) return 0
  return 1 + Math.max(0, ...Object.values(value).map((inner) => levelsOf(inner as JsonValue)))
}

const extrasArbitrary = fc.record({
  atSize: fc.option(fc.string({ unit: 'binary', maxLength: 40 }), { freq: 2 }),
  deepLeaf: awkwardJsonArbitrary,
  text: fc.constantFrom('\ud800 lone', 'tail \udfff', '🙂🚀👨‍👩‍👧‍👦', '東京 naïve', '\u2028\u0000'),
})

const withoutThread = ({ threadId: _threadId, ...rest }: Entry) => rest

describe('export and import into a fresh database (property)', () => {
  it(`give identical entries for random threads with entries at the size and depth limits, unicode, emoji and lone surrogates (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(actionsArbitrary, extrasArbitrary, async (actions, extras) => {
        const source = openTestStores('round-trip-source', deterministicOptions())
        const target = openTestStores('round-trip-target', deterministicOptions())
        try {
          const built = buildThread(actions).entries.map(
            ({ kind, payload, refs, meta, createdAt }) => ({ kind, payload, refs, createdAt, ...(meta === undefined ? {} : { meta }) }) as EntryInput,
          )
          const inputs: EntryInput[] = [
            ...built,
            { kind: 'message', payload: { role: 'user', content: extras.text } },
            ...callAtDepthLimit(extras.deepLeaf as JsonValue, 'deep-call'),
            ...(extras.atSize === null ? [] : [messageAtSizeLimit(extras.atSize)]),
          ]
          const { id } = await source.threads.create({ title: extras.text, metadata: { note: extras.deepLeaf as JsonValue } })
          await source.threads.appendMany(id, inputs)
          const exported = await source.threads.export(id)
          const { threadId: copyId, changes } = await target.threads.import(exported)
          const original = await source.threads.load(id)
          const copy = await target.threads.load(copyId)
          expect(copy.entries).toHaveLength(inputs.length)
          // An export is taken as it is: nothing to report.
          expect(changes).toEqual([])
          expect(copy.entries.map(withoutThread)).toEqual(original.entries.map(withoutThread))
          expect((await target.threads.get(copyId))?.metadata).toEqual({ note: JSON.parse(JSON.stringify(extras.deepLeaf)) as unknown })
          // A string and a Blob of the same export, with or without a byte order mark, import alike.
          const { threadId: fromBomString } = await target.threads.import(`\uFEFF${exported}`)
          const { threadId: fromBomBlob } = await target.threads.import(new Blob([`\uFEFF${exported}`]))
          for (const again of [fromBomString, fromBomBlob]) {
            expect((await target.threads.load(again)).entries.map(withoutThread)).toEqual(original.entries.map(withoutThread))
          }
        } finally {
          source.db.close()
          target.db.close()
        }
      }),
      { seed: SEED, numRuns: 12 },
    )
  }, 120_000)
})
