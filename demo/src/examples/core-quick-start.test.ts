import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
const example = readFileSync(new URL('./core-quick-start.ts', import.meta.url), 'utf8')

/** The fenced block right after `<!-- example: NAME -->` in the README. */
function readmeBlock(name: string, language = 'ts'): string {
  const marker = `<!-- example: ${name} -->`
  const start = readme.indexOf(marker)
  if (start < 0) throw new Error(`README has no ${marker}`)
  const fence = '```' + language + '\n'
  const open = readme.indexOf(fence, start) + fence.length
  return readme.slice(open, readme.indexOf('```', open))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('README core example', () => {
  it('is this file, word for word', () => {
    expect(readmeBlock('core')).toBe(example)
    expect(example.split('\n').length).toBeLessThanOrEqual(22)
  })

  it('the app quick start (store + session + devtools) is app-quick-start.tsx, word for word, under 30 lines', () => {
    const app = readFileSync(new URL('./app-quick-start.tsx', import.meta.url), 'utf8')
    expect(readmeBlock('app', 'tsx')).toBe(app)
    expect(app.trimEnd().split('\n').length).toBeLessThanOrEqual(30)
  })

  it('runs and prints what the README says it prints', async () => {
    const printed: unknown[][] = []
    vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => {
      printed.push(values)
    })
    await import('./core-quick-start')
    const [total, of, budget] = printed[0] as [number, string, number]
    expect(of).toBe('of')
    expect(budget).toBe(6000)
    expect(total).toBeGreaterThan(20)
    expect(total).toBeLessThanOrEqual(budget)
    expect(printed[1]?.[0]).toEqual([])
    expect(String(printed[2]?.[0])).toContain('[history]')
    const request = JSON.parse(String(printed[3]?.[0])) as { messages: { role: string; tool_calls?: unknown[] }[] }
    expect(request.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user'])
    expect(request.messages[2]?.tool_calls).toHaveLength(1)
  })
})
