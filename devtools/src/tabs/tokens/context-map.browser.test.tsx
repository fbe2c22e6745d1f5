import type { EntryInput } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

function logThread(): EntryInput[] {
  return [
    { kind: 'message', payload: { role: 'user', content: 'read the log please' }, refs: { requestId: 'r1' } },
    { kind: 'tool_call', payload: { name: 'read_file', arguments: { path: 'app.log' } }, refs: { requestId: 'r1', callId: 'c1', toolCallId: 't1' } },
    { kind: 'tool_result', payload: { name: 'read_file', result: 'error line\n'.repeat(800) }, refs: { requestId: 'r1', toolCallId: 't1' } },
    { kind: 'message', payload: { role: 'assistant', content: 'The log repeats one <b>error</b>.' }, refs: { requestId: 'r1', callId: 'c2' } },
  ]
}

describe('Context map', () => {
  it('sizes tiles by tokens against the input budget and makes the big tool result stand out', async () => {
    const panel = await renderPanel({
      entries: logThread(),
      tab: 'tokens',
      width: 800,
      policy: testPolicy({ maxInputTokens: 8000, reserveOutputTokens: 1000, systemPrompt: 'You read logs.' }),
    })
    const map = await panel.find('context-map')
    expect(map.dataset['budget']).toBe('7000')
    const box = (await panel.find('context-map-tiles')).getBoundingClientRect()
    const tiles = panel.queryAll('[data-testid="context-tile"]')
    const total = tiles.reduce((sum, tile) => sum + Number(tile.dataset['tokens']), 0)
    expect(total).toBe(7000)
    for (const tile of tiles) {
      const rect = tile.getBoundingClientRect()
      // Each tile's area is its share of the budget (within a pixel's rounding on each side).
      const expected = (Number(tile.dataset['tokens']) / 7000) * box.width * box.height
      expect(Math.abs(rect.width * rect.height - expected)).toBeLessThanOrEqual(2 * (rect.width + rect.height) + 4)
    }
    const history = tiles.filter((tile) => tile.dataset['part'] === 'history')
    const biggest = history.sort((a, b) => Number(b.dataset['tokens']) - Number(a.dataset['tokens']))[0] as HTMLElement
    expect(biggest.textContent).toContain('tool · read_file')
    expect((await panel.find('context-largest')).querySelector('li')?.textContent).toContain('tool · read_file')
    expect((await panel.find('context-reserved')).textContent).toContain('reserved output 1,000 tokens: outside the input budget')
    panel.unmount()
  })

  it('lists a tile’s messages as text and opens an entry in the timeline', async () => {
    const panel = await renderPanel({ entries: logThread(), tab: 'tokens', policy: testPolicy({ maxInputTokens: 8000, reserveOutputTokens: 1000 }) })
    await panel.find('context-map')
    const assistant = panel.queryAll('[data-testid="context-tile"]').find((tile) => tile.title.includes('The log repeats')) as HTMLElement
    assistant.click()
    const block = await panel.find('context-block')
    expect(assistant.getAttribute('aria-pressed')).toBe('true')
    // Untrusted text stays text.
    expect(block.textContent).toContain('The log repeats one <b>error</b>.')
    expect(block.querySelector('b')).toBeNull()
    const seqLinks = [...block.querySelectorAll('button')].filter((button) => button.textContent?.startsWith('#'))
    expect(seqLinks.map((link) => link.textContent)).toEqual(['#3'])
    ;(seqLinks[0] as HTMLButtonElement).click()
    await eventually(() => expect(panel.query('[data-testid="entry-detail"]')?.dataset['seq']).toBe('3'))
    panel.unmount()
  })
})
