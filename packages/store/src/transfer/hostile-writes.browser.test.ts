import { createTokenCounter, definePolicy, project, ThreadlensError, type EntryInput, type JsonValue } from '@threadlens/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { awkwardJsonArbitrary, hostileValueArbitrary } from '@threadlens/testing'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { createMemoryStore } from '../backends/indexeddb/create-memory-store'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { browserDatabaseName, threadInNewDatabase } from '../testing/browser-stores'

const SEED = 20261124

/** A value to write, and whether the one definition of JSON data accepts it. */
const valueArbitrary: fc.Arbitrary<{ value: unknown; valid: boolean }> = fc.oneof(
  hostileValueArbitrary.map(({ value }) => ({ value, valid: false })),
  awkwardJsonArbitrary.map((value) => ({ value: { value }, valid: true })),
)

/** JSON text that parses but is no valid entry value, or does not parse at all. */
const hostileJsonText = fc.constantFrom(
  '1e999',
  '-1e400',
  `${'['.repeat(2_000)}${']'.repeat(2_000)}`,
  `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"\\ud800"',
  '[1,2',
)

type Operation =
  | { type: 'append'; value: { value: unknown; valid: boolean } }
  | { type: 'appendMany'; value: { value: unknown; valid: boolean } }
  | { type: 'memory'; key: string; value: { value: unknown; valid: boolean } }
  | { type: 'import-jsonl'; replacement: string; cut: number | null; bom: boolean; blob: boolean }
  | { type: 'import-openai'; value: { value: unknown; valid: boolean }; asText: boolean }

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ type: fc.constant('append' as const), value: valueArbitrary }),
  fc.record({ type: fc.constant('appendMany' as const), value: valueArbitrary }),
  fc.record({ type: fc.constant('memory' as const), key: fc.constantFrom('a', 'b', 'c'), value: valueArbitrary }),
  fc.record({
    type: fc.constant('import-jsonl' as const),
    replacement: hostileJsonText,
    cut: fc.option(fc.nat(400)),
    bom: fc.boolean(),
    blob: fc.boolean(),
  }),
  fc.record({ type: fc.constant('import-openai' as const), value: valueArbitrary, asText: fc.boolean() }),
)

/** `'ok'` when the write went in, else what it threw. */
const outcomeOf = (write: Promise<unknown>): Promise<unknown> =>
  write.then(
    () => 'ok' as const,
    (error: unknown) => error,
  )

/** What JSON keeps of an accepted value: the store's copy must equal it. */
const normalised = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown

describe('hostile values through every public write path (real Chromium)', () => {
  it(`are refused with typed errors and never stored; afterwards every thread loads, exports, imports and projects (seed ${SEED})`, async () => {
    const counter = await createTokenCounter('heuristic')
    const policy = definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 1_000 })
    // Per write path: how many writes went in and how many were refused, to show both were tried.
    const tally: Record<string, { ok: number; refused: number }> = {}
    const count = (path: string, ok: boolean): void => {
      const entry = (tally[path] ??= { ok: 0, refused: 0 })
      if (ok) entry.ok++
      else entry.refused++
    }
    await fc.assert(
      fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: 8 }), async (operations) => {
        const db = new ThreadlensDB({ name: browserDatabaseName('fuzz') })
        const threads = createThreadStore(db)
        const memory = createMemoryStore(db)
        try {
          const { id } = await threads.create({ title: 'fuzz' })
          const expected: unknown[] = []
          const memoryExpected: Record<string, unknown> = {}
          let imported = 0
          let call = 0
          const refused = (error: unknown, label: string): void => {
            count(label, false)
            // Typed, never a RangeError or TypeError from deep inside.
            expect(ThreadlensError.isInstance(error), `${label}: ${String(error)}`).toBe(true)
          }
          /** Imports `input`: counted as imported, or refused with a typed error. */
          const tryImport = async (input: string | Blob | unknown[], path: string): Promise<unknown> => {
            const outcome = await outcomeOf(threads.import(input))
            if (outcome === 'ok') {
              imported++
              count(path, true)
            } else refused(outcome, path)
            return outcome
          }
          for (const operation of operations) {
            if (operation.type === 'append' || operation.type === 'appendMany') {
              const toolCallId = `call-${call++}`
              const input = {
                kind: 'tool_call',
                payload: { name: 't', arguments: operation.value.value },
                refs: { toolCallId },
              } as unknown as EntryInput
              const write =
                operation.type === 'append'
                  ? threads.append(id, input)
                  : threads.appendMany(id, [{ kind: 'message', payload: { role: 'user', content: 'before' } }, input])
              const outcome = await outcomeOf(write)
              if (outcome === 'ok') count(operation.type, true)
              if (operation.value.valid) {
                expect(outcome).toBe('ok')
                if (operation.type === 'appendMany') expected.push({ role: 'user', content: 'before' })
                expected.push({ name: 't', arguments: normalised(operation.value.value) })
              } else refused(outcome, operation.type)
            } else if (operation.type === 'memory') {
              const outcome = await outcomeOf(memory.world.put('fuzz', operation.key, operation.value.value as JsonValue))
              if (outcome === 'ok') count('memory', true)
              if (operation.value.valid) {
                expect(outcome).toBe('ok')
                memoryExpected[operation.key] = normalised(operation.value.value)
              } else refused(outcome, 'memory')
            } else if (operation.type === 'import-jsonl') {
              const exported = await threads.export(id)
              const lines = exported.split('\n')
              // A hostile value in the last entry's payload, or the file cut short, or both.
              if (lines.length > 2)
                lines[1] = (lines[1] as string).replace(
                  /"payload":\{.*\},"refs"/,
                  `"payload":{"name":"t","arguments":${operation.replacement}},"refs"`,
                )
              let text = lines.join('\n')
              if (operation.cut !== null) text = text.slice(0, operation.cut)
              if (operation.bom) text = `\uFEFF${text}`
              await tryImport(operation.blob ? new Blob([text]) : text, 'import-jsonl')
            } else {
              // Valid: the value as the arguments' JSON text. Hostile: the value itself as a message's content.
              const { value, valid } = operation.value
              const messages = [
                { role: 'user', content: valid ? 'hi' : value },
                {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: 'x1', type: 'function', function: { name: 't', arguments: valid ? JSON.stringify(value) : '{}' } }],
                },
                { role: 'tool', tool_call_id: 'x1', content: 'done' },
              ]
              let input: string | unknown[] = messages
              let predictable = true
              if (operation.asText) {
                try {
                  input = JSON.stringify(messages)
                  // JSON.stringify turns some hostile values into valid ones (a Date into its text).
                  predictable = valid
                } catch {
                  input = messages
                }
              }
              const outcome = await tryImport(input, 'import-openai')
              if (predictable) expect(outcome === 'ok', `import-openai ${String(outcome)}`).toBe(valid)
            }
          }
          // The database holds exactly what was accepted.
          const thread = await threads.load(id)
          expect(thread.entries.map((entry) => entry.payload)).toEqual(expected)
          expect((await memory.get('fuzz')).spaces.world.data).toEqual(memoryExpected)
          const all = await threads.list()
          expect(all).toHaveLength(1 + imported)
          for (const record of all) {
            const loaded = await threads.load(record.id)
            project({ thread: loaded, policy, counter })
            const copy = await threads.load((await threads.import(await threads.export(record.id))).threadId)
            expect(copy.entries.map(({ threadId: _threadId, ...rest }) => rest)).toEqual(
              loaded.entries.map(({ threadId: _threadId, ...rest }) => rest),
            )
          }
          expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
        } finally {
          db.close()
        }
      }),
      { seed: SEED, numRuns: 40 },
    )
    for (const path of ['append', 'appendMany', 'memory', 'import-jsonl', 'import-openai']) {
      expect(tally[path]?.ok, path).toBeGreaterThan(0)
      expect(tally[path]?.refused, path).toBeGreaterThan(0)
    }
  }, 120_000)
})

describe('a UTF-8 byte order mark (real Chromium)', () => {
  it('is read the same from a string as from a Blob', async () => {
    const { db, threads, id } = await threadInNewDatabase('bom', 'bom')
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'hej 🙂 \ud800' } })
    const exported = `\uFEFF${await threads.export(id)}`
    const fromString = await threads.load((await threads.import(exported)).threadId)
    const fromBlob = await threads.load((await threads.import(new Blob([exported], { type: 'application/x-ndjson' }))).threadId)
    const original = await threads.load(id)
    for (const copy of [fromString, fromBlob]) {
      expect(copy.entries.map(({ threadId: _threadId, ...rest }) => rest)).toEqual(original.entries.map(({ threadId: _threadId, ...rest }) => rest))
    }
    db.close()
  })
})
