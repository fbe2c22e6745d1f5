import { entryLimits } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { ImportValidationError } from '../errors'
import { defaultImportLimits } from './import-limits'
import { exceedsBytes, utf8Length } from './safe-json'
import { parseImportText, parseOpenAIMessages, parseThreadJsonl } from './thread-jsonl'

const header = (entryCount: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 'threadlens.thread',
    version: 1,
    thread: { id: 't', title: '', createdAt: 1, updatedAt: 1, parent: null, metadata: {} },
    entryCount,
    ...extra,
  })
const entry = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: `e${seq}`,
    threadId: 't',
    seq,
    kind: 'message',
    payload: { role: 'user', content: `m${seq}` },
    refs: {},
    createdAt: 1,
    ...extra,
  })
const file = (...lines: string[]) => `${lines.join('\n')}\n`

function rejection(text: string): ImportValidationError {
  try {
    parseImportText(text, defaultImportLimits)
  } catch (error) {
    expect(error).toBeInstanceOf(ImportValidationError)
    return error as ImportValidationError
  }
  throw new Error('expected the import to be rejected')
}

describe('JSONL import validation', () => {
  it('accepts a valid file and drops token counts it carries', () => {
    const parsed = parseThreadJsonl(file(header(2), entry(0, { meta: { tokens: { o200k_base: 1 }, pinned: true } }), entry(1)), defaultImportLimits)
    expect(parsed.inputs).toHaveLength(2)
    expect(parsed.inputs[0]?.meta).toEqual({ pinned: true })
  })

  it('names the line and field of what is wrong', () => {
    expect(rejection(file(header(1), '{"id": "e0",'))).toMatchObject({ line: 2, field: '' })
    expect(rejection(file(header(1), entry(0, { payload: { role: 'user', content: 42 } })))).toMatchObject({ line: 2, field: 'payload.content' })
    expect(rejection(file(header(1), entry(0, { kind: 'telepathy' })))).toMatchObject({ line: 2, field: 'kind' })
    expect(rejection(file(header(1), entry(0, { extra: true })))).toMatchObject({ line: 2 })
    expect(rejection(file(header(2), entry(0), entry(2)))).toMatchObject({ line: 3, field: 'seq' })
    expect(rejection(file(header(1), entry(1)))).toMatchObject({ line: 2, field: 'seq' })
    expect(rejection(file(header(3), entry(0), entry(1)))).toMatchObject({ line: 1, field: 'entryCount' })
    expect(rejection(file(header(1, { format: 'other' }), entry(0)))).toMatchObject({ line: 1, field: 'format' })
    expect(rejection(file(header(1, { version: 2 }), entry(0)))).toMatchObject({ line: 1, field: 'version' })
    expect(rejection(file(header(1), entry(0, { threadId: 'other' })))).toMatchObject({ line: 2, field: 'threadId' })
    expect(rejection(file(header(2), entry(0), '', entry(1)))).toMatchObject({ line: 3 })
    expect(rejection('')).toMatchObject({ line: undefined })
  })

  it('applies the tool pairing rules', () => {
    const result = entry(0, { kind: 'tool_result', payload: { name: 'w', result: 1 }, refs: { toolCallId: 'x' } })
    expect(rejection(file(header(1), result))).toMatchObject({ line: 2, field: 'refs.toolCallId' })
    const call = (seq: number) => entry(seq, { kind: 'tool_call', payload: { name: 'w', arguments: {} }, refs: { toolCallId: 'x' } })
    expect(rejection(file(header(2), call(0), call(1)))).toMatchObject({ line: 3, field: 'refs.toolCallId' })
    expect(rejection(file(header(1), entry(0, { kind: 'summary', payload: { fromSeq: 0, toSeq: 0, content: '' } })))).toMatchObject({
      field: 'payload.toSeq',
    })
  })

  it('keeps tool names stored before the tool name rule (they are mapped on the way out, not rewritten)', () => {
    const call = entry(0, { kind: 'tool_call', payload: { name: 'web.search', arguments: {} }, refs: { toolCallId: 'x' } })
    const result = entry(1, { kind: 'tool_result', payload: { name: 'web.search', result: 'ok' }, refs: { toolCallId: 'x' } })
    const parsed = parseThreadJsonl(file(header(2), call, result), defaultImportLimits)
    expect(parsed.inputs.map((input) => (input.kind === 'tool_call' || input.kind === 'tool_result' ? input.payload.name : ''))).toEqual([
      'web.search',
      'web.search',
    ])
  })

  it('refuses prototype-polluting keys anywhere, and leaves Object.prototype alone', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const hostile = `{"id":"e0","threadId":"t","seq":0,"kind":"tool_call","payload":{"name":"w","arguments":{"a":{"${key}":{"polluted":true}}}},"refs":{"toolCallId":"x"},"createdAt":1}`
      expect(rejection(file(header(1), hostile))).toMatchObject({ line: 2, field: key })
      expect(rejection(file(header(1).replace('"metadata":{}', `"metadata":{"${key}":{"polluted":true}}`), entry(0)))).toMatchObject({
        line: 1,
        field: key,
      })
    }
    expect(rejection(`[{"role":"user","content":"x","__proto__":{"polluted":true}}]`)).toMatchObject({ field: '__proto__' })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('checks sizes before parsing', () => {
    const limits = { ...defaultImportLimits, maxBytes: 1000, maxLineBytes: 200, maxEntries: 2 }
    const big = `${header(1)}\n${'x'.repeat(2000)}`
    expect(() => parseImportText(big, limits)).toThrow(/larger than the 1000-byte limit/)
    expect(() => parseThreadJsonl(file(header(1), entry(0, { payload: { role: 'user', content: 'y'.repeat(300) } })), limits)).toThrow(
      /line is longer/,
    )
    expect(() => parseThreadJsonl(file(header(3), entry(0), entry(1), entry(2)), limits)).toThrow(/more than 2 entries/)
    // Multi-byte text is measured in UTF-8 bytes, not characters.
    expect(utf8Length('é€😀')).toBe(2 + 3 + 4)
    expect(exceedsBytes('€'.repeat(400), 1000)).toBe(true)
    expect(exceedsBytes('€'.repeat(300), 1000)).toBe(false)
  })

  it('refuses hostile nesting with ImportValidationError and a line number, never a RangeError', () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    const deepLine = (depth: number) =>
      entry(0, { kind: 'tool_call', refs: { toolCallId: 'x' } }).replace(
        '"payload":{"role":"user","content":"m0"}',
        `"payload":{"name":"w","arguments":${deep(depth)}}`,
      )
    for (const depth of [2_000, 100_000]) {
      expect(rejection(file(header(1), deepLine(depth)))).toMatchObject({ line: 2, message: expect.stringMatching(/deeper than the 64-level limit/) })
      expect(
        rejection(
          `[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"w","arguments":${JSON.stringify(deep(depth))}}}]}]`,
        ).message,
      ).toMatch(/deeper than the 64-level limit/)
      expect(rejection(`[${'['.repeat(depth)}${']'.repeat(depth)}]`).message).toMatch(/deeper than the 64-level limit/)
    }
    // Brackets inside strings are text, not nesting.
    expect(
      parseThreadJsonl(file(header(1), entry(0, { payload: { role: 'user', content: '{['.repeat(5000) } })), defaultImportLimits).inputs,
    ).toHaveLength(1)
  })

  it('reads a messages array handed over in code as JSON data: getters, cycles and class instances are import errors', () => {
    const looping: Record<string, unknown> = { role: 'user', content: 'hi' }
    looping['self'] = looping
    const getter = {
      get role(): string {
        throw new Error('getter ran')
      },
      content: 'hi',
    }
    for (const [messages, field] of [
      [[looping], '0.self'],
      [[getter], '0.role'],
      [[{ role: 'user', content: new Date(0) }], '0.content'],
    ] as const) {
      const error = (() => {
        try {
          parseOpenAIMessages(messages, defaultImportLimits)
        } catch (caught) {
          return caught
        }
        return undefined
      })()
      expect(error).toBeInstanceOf(ImportValidationError)
      expect(error).toMatchObject({ field })
    }
  })

  it('reads a UTF-8 byte order mark the same in a string as in a Blob', () => {
    expect(parseImportText(`\uFEFF${file(header(1), entry(0))}`, defaultImportLimits).inputs).toHaveLength(1)
    expect(parseImportText('\uFEFF[{"role":"user","content":"hi"}]', defaultImportLimits).inputs).toHaveLength(1)
  })

  it('takes a line as long as the largest entry append accepts, with its token counts', () => {
    expect(defaultImportLimits.maxLineBytes).toBe(entryLimits.maxEntryBytes + entryLimits.tokenCountBytes)
  })

  it('reads an OpenAI messages array, and names the message that is wrong', () => {
    expect(parseImportText('[{"role":"user","content":"hi"}]', defaultImportLimits).inputs).toHaveLength(1)
    expect(rejection('[{"role":"wizard","content":"hi"}]')).toMatchObject({ line: undefined, field: '0.role' })
    expect(rejection('[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"x","content":"r"}]')).toMatchObject({ field: '1.tool_call_id' })
    expect(rejection('[1, 2')).toMatchObject({ line: undefined })
  })
})
