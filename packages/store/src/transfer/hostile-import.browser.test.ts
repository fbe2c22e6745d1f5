import { describe, expect, it } from 'vitest'
import { ImportValidationError } from '../errors'
import { threadInNewDatabase } from '../testing/browser-stores'

const header = (entryCount: number) =>
  JSON.stringify({
    format: 'threadlens.thread',
    version: 1,
    thread: { id: 't', title: '', createdAt: 1, updatedAt: 1, parent: null, metadata: {} },
    entryCount,
  })
const entry = (seq: number, extra = '') =>
  `{"id":"e${seq}","threadId":"t","seq":${seq},"kind":"message","payload":{"role":"user","content":"m${seq}"},"refs":{},"createdAt":1${extra}}`

describe('hostile imports (real Chromium)', () => {
  it('are rejected before any write: the database is unchanged and Object.prototype untouched', async () => {
    const { db, threads, id } = await threadInNewDatabase('hostile', 'keep me')
    await threads.append(id, { kind: 'message', payload: { role: 'user', content: 'existing' } })
    const snapshot = async () => ({ threads: await db.threads.toArray(), entries: await db.entries.toArray() })
    const before = await snapshot()

    const hundredMegabytes = `${header(1)}\n${'x'.repeat(100 * 1024 * 1024)}`
    const hostile: [string, string | Blob | unknown[]][] = [
      ['malformed JSON', `${header(1)}\n{"id": "e0", "seq": 0,`],
      ['wrong types', `${header(1)}\n${entry(0).replace('"seq":0', '"seq":"0"')}`],
      ['100 MB text', hundredMegabytes],
      ['100 MB blob', new Blob([hundredMegabytes])],
      ['__proto__ key', `${header(1)}\n${entry(0, ',"meta":{"app":{"__proto__":{"polluted":true}}}')}`],
      ['constructor key', `${header(1)}\n${entry(0, ',"meta":{"app":{"constructor":{"prototype":{"polluted":true}}}}')}`],
      ['__proto__ in a messages array', '[{"role":"user","content":"x","__proto__":{"polluted":true}}]'],
      ['unknown kind', `${header(1)}\n${entry(0).replace('"kind":"message"', '"kind":"mind_control"')}`],
      ['gap in seq', `${header(2)}\n${entry(0)}\n${entry(2)}`],
      [
        'result without call',
        `${header(1)}\n{"id":"e0","threadId":"t","seq":0,"kind":"tool_result","payload":{"name":"x","result":1},"refs":{"toolCallId":"x"},"createdAt":1}`,
      ],
      ['not messages', [{ role: 'wizard', content: 'x' }]],
      ['truncated file', `${header(3)}\n${entry(0)}\n${entry(1)}`],
    ]
    for (const [label, input] of hostile) {
      const error = await threads.import(input).catch((caught: unknown) => caught)
      expect(error, label).toBeInstanceOf(ImportValidationError)
    }
    expect(await snapshot()).toEqual(before)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    db.close()
  }, 60_000)
})
