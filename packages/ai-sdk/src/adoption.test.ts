import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

/** Lines of `after` not kept from `before` (added or rewritten), and lines of `before` dropped: a longest-common-subsequence line diff. */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  const a = before.split('\n')
  const b = after.split('\n')
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = lengths[i] as number[]
      row[j] = a[i] === b[j] ? (lengths[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0)
    }
  }
  const common = lengths[0]?.[0] ?? 0
  return { added: b.length - common, removed: a.length - common }
}

const example = (name: string) => readFile(new URL(`../examples/${name}`, import.meta.url), 'utf8')

describe('adopting threadlens in a useChat app', () => {
  it('the line diff counts what changed', () => {
    expect(lineChanges('a\nb\nc', 'a\nb\nc')).toEqual({ added: 0, removed: 0 })
    expect(lineChanges('a\nb\nc', 'a\nx\nb\ny\nc\nz')).toEqual({ added: 3, removed: 0 })
    expect(lineChanges('a\nb\nc', 'a\nB\nc')).toEqual({ added: 1, removed: 1 })
  })

  // 18: the history loads after the first paint (three of the lines), so the box does not wait for IndexedDB.
  it('takes at most 18 changed lines: persistence, projection and the devtools', async () => {
    const changes = lineChanges(await example('minimal-chat.tsx'), await example('adopted-chat.tsx'))
    // printed so the figure in the README can be checked against the files
    console.log(`adoption: ${changes.added} lines added or rewritten, ${changes.removed} original lines replaced`)
    expect(changes.added).toBeLessThanOrEqual(18)
    expect(changes.removed).toBeLessThanOrEqual(changes.added)
  })

  it('takes at most 15 changed lines with the model in a server route too: persistence, projection and the devtools in the browser', async () => {
    const changes = lineChanges(await example('minimal-server-chat.tsx'), await example('adopted-server-chat.tsx'))
    console.log(`adoption, server route: ${changes.added} lines added or rewritten, ${changes.removed} original lines replaced`)
    expect(changes.added).toBeLessThanOrEqual(15)
    expect(changes.removed).toBeLessThanOrEqual(changes.added)
  })
})
