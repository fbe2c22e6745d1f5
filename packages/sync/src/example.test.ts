import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const docs = readFileSync(new URL('../../../docs/sync.md', import.meta.url), 'utf8')
const example = readFileSync(new URL('../examples/start-sync.ts', import.meta.url), 'utf8')

describe('docs/sync.md', () => {
  it('shows examples/start-sync.ts word for word (the file is type-checked with the tests)', () => {
    const marker = '<!-- example: sync -->'
    const start = docs.indexOf(marker)
    expect(start).toBeGreaterThan(0)
    const open = docs.indexOf('```ts\n', start) + '```ts\n'.length
    expect(docs.slice(open, docs.indexOf('```', open))).toBe(example)
  })
})
