import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tabIds } from '../../../devtools/src/panel/tab-registry'

const root = new URL('../../../', import.meta.url)
const documents = ['README.md', 'devtools/README.md', 'docs/devtools.md'].filter((path) => existsSync(new URL(path, root)))

/** A table row's cells: split on `|` outside code spans, escaped pipes kept. */
function cells(line: string): string[] {
  const found: string[] = []
  let current = ''
  let inCode = false
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '')
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index] as string
    if (character === '\\' && body[index + 1] === '|') {
      current += '|'
      index += 1
    } else if (character === '`') {
      inCode = !inCode
      current += character
    } else if (character === '|' && !inCode) {
      found.push(current.trim())
      current = ''
    } else current += character
  }
  found.push(current.trim())
  return found
}

/** Every table (header line, delimiter line, rows) outside fenced code, with the line it starts on. */
function tables(text: string): { line: number; rows: string[][] }[] {
  const lines = text.split('\n')
  const found: { line: number; rows: string[][] }[] = []
  let fenced = false
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string
    if (line.startsWith('```')) fenced = !fenced
    if (fenced || !line.trim().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(lines[index + 1] ?? '')) continue
    const rows = [cells(line)]
    let next = index + 1
    while (next < lines.length && (lines[next] as string).trim().startsWith('|')) rows.push(cells(lines[next++] as string))
    found.push({ line: index + 1, rows })
    index = next - 1
  }
  return found
}

// A row with more cells than its header is silently cut (GitHub drops the extra cells), one with
// fewer leaves holes: the screenshot tables once showed three images under a two-column header.
describe.each(documents)('%s tables render as written', (path) => {
  const text = readFileSync(new URL(path, root), 'utf8')
  it('every row has as many cells as its header', () => {
    const found = tables(text)
    expect(found.length).toBeGreaterThan(0)
    const uneven = found.flatMap((table) =>
      table.rows
        .filter((row) => row.length !== table.rows[0]?.length)
        .map((row) => `line ${table.line}: ${table.rows[0]?.length} header cells, a row of ${row.length}: ${row.join(' | ').slice(0, 80)}`),
    )
    expect(uneven).toEqual([])
  })
  it('every image it shows exists', () => {
    const images = [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1] as string).filter((source) => !/^https?:/.test(source))
    const base = new URL(path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '', root)
    expect(images.filter((source) => !existsSync(new URL(source, base)))).toEqual([])
  })
})

describe('docs/devtools.md', () => {
  it('shows a screenshot of every tab of the panel', () => {
    const text = readFileSync(new URL('docs/devtools.md', root), 'utf8')
    expect(tabIds.filter((tab) => !text.includes(`](screenshots/devtools-${tab}.png)`))).toEqual([])
  })
})
