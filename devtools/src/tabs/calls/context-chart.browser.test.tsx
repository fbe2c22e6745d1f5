import { createSessionSource } from '@threadlens/client'
import type { EntryInput } from '@threadlens/core'
import type { RecordedCall } from '@threadlens/core/calls'
import axe from 'axe-core'
import { describe, expect, it } from 'vitest'
import { page, userEvent } from 'vitest/browser'
import { conversation, eventually, renderPanel, testPolicy, type Harness } from '../../testing/panel-harness'
import { recordAttempts } from '../../testing/varied-threads'

const policy = testPolicy({ name: 'recorded', maxInputTokens: 9_000, reserveOutputTokens: 1_000 })

/** The calls of `conversation(turns)` (c0a, c0, c1, …), each with a count, and usage on every other one. */
function recordsOf(entries: readonly EntryInput[]): RecordedCall[] {
  const ids = [...new Set(entries.map((entry) => entry.refs?.callId).filter((id): id is string => id !== undefined))]
  return ids.map((callId, index) => ({
    callId,
    policy,
    localInputTokens: 400 + index * 150,
    ...(index % 2 === 1 ? { usage: { inputTokens: 420 + index * 150, outputTokens: 20, cachedInputTokens: 300 + index * 100 } } : {}),
  }))
}

/** Four turns with a summary written before the third question. */
function summarizedConversation(): EntryInput[] {
  const entries = conversation(4)
  const third = entries.findIndex(
    (entry) => entry.kind === 'message' && entry.payload.role === 'user' && entry.payload.content.startsWith('question 2'),
  )
  return [
    ...entries.slice(0, third),
    { kind: 'summary', payload: { fromSeq: 0, toSeq: 2, content: 'the first two questions, in short' } },
    ...entries.slice(third),
  ]
}

async function violations(element: Element): Promise<string[]> {
  const results = await axe.run(element, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } })
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

/** WCAG contrast of two computed colours (`rgb(…)`). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/**
 * axe checks the chart's HTML text, but leaves text inside an SVG "incomplete" (it cannot tell the
 * background behind a drawing): its labels (4.5:1) and lines and marks (3:1) are measured here.
 */
function svgContrasts(chart: HTMLElement, background: string): string[] {
  const low: string[] = []
  for (const text of chart.querySelectorAll('svg text'))
    if (contrast(getComputedStyle(text).fill, background) < 4.5) low.push(`label ${text.textContent}`)
  for (const mark of chart.querySelectorAll('svg path, svg circle, svg line')) {
    const style = getComputedStyle(mark)
    const paint = style.stroke !== 'none' ? style.stroke : style.fill
    if (mark.closest('[aria-hidden]') === null && mark.getAttribute('stroke') === '#2c333d') continue // grid lines
    if (contrast(paint, background) < 3) low.push(`${mark.tagName} ${paint}`)
  }
  return low
}

const chartOf = async (panel: Harness) => {
  const chart = await panel.find('context-chart')
  await eventually(() => expect(chart.querySelector('[data-testid="context-chart-svg"]')).not.toBeNull())
  return chart
}

describe('the Calls tab’s context chart', () => {
  it('draws each request’s prompt against the budget, marks summaries and unanswered requests, selects a call by click, key and table, and passes axe', async () => {
    await page.viewport(1440, 900)
    const entries = summarizedConversation()
    const panel = await renderPanel({
      entries,
      tab: 'calls',
      policy,
      height: 900,
      session: createSessionSource({ status: 'idle', threadId: 'unused', calls: recordsOf(entries) }),
    })
    await recordAttempts(panel.stores, panel.threadId, policy)
    try {
      const chart = await chartOf(panel)
      // conversation(4): c0a c0 c1 c2 c3a c3, then the call log's three attempts (late-1 twice, late-2).
      await eventually(() => expect(chart.querySelectorAll('[data-testid="context-chart-point"]')).toHaveLength(9))
      const svg = chart.querySelector('[data-testid="context-chart-svg"]') as SVGSVGElement
      expect(svg.getAttribute('role')).toBe('group')
      expect(svg.getAttribute('aria-label')).toMatch(
        /^Prompt size of 9 requests, oldest first; sent from 400 to 1,150 tokens \(the most at request \d\); budget 8,000 tokens; 1 summary written; 3 not answered\.$/,
      )
      expect(chart.querySelectorAll('[data-testid="context-chart-summary"]')).toHaveLength(1)
      expect(chart.querySelectorAll('[data-testid="context-chart-unanswered"]')).toHaveLength(3)
      expect(chart.querySelector('[data-testid="context-chart-budget"]')?.getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+H/)
      expect(chart.querySelector('[data-testid="context-chart-legend"]')?.textContent).toBe(
        'prompt tokens sent (counted here)prompt tokens the provider countedread from the provider’s cacheinput budget of the policysummary writtenrecall brought entries backnot answered',
      )
      // Each point says its figures (tooltip and accessible name alike).
      const second = chart.querySelector('[data-key="c:c0"]') as SVGRectElement
      expect(second.getAttribute('aria-label')).toBe(
        'request 2, call c0 · sent 550 tokens · provider counted 570 · 400 read from cache · budget 8,000 tokens',
      )
      expect(second.querySelector('title')?.textContent).toBe(second.getAttribute('aria-label'))

      // The newest row is selected: its point is the current one.
      expect(chart.querySelector('[aria-current="true"][data-testid="context-chart-point"]')?.getAttribute('data-key')).toBe('a:late-2#1')
      second.dispatchEvent(new MouseEvent('click', { bubbles: true }))
      await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('c0'))
      expect(second.getAttribute('aria-current')).toBe('true')
      // Keyboard: the selected point is the one tab stop; arrows move, Enter selects.
      second.focus()
      await userEvent.keyboard('{ArrowRight}{ArrowRight}{Enter}')
      await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('c2'))
      expect(chart.querySelectorAll('[data-testid="context-chart-point"][tabindex="0"]')).toHaveLength(1)
      // A row chosen in the list moves the chart's tab stop to its point.
      ;(panel.query('[data-call-id="c3"][data-testid="call-row"]') as HTMLElement).click()
      await eventually(() => expect(chart.querySelector('[data-testid="context-chart-point"][tabindex="0"]')?.getAttribute('data-key')).toBe('c:c3'))
      expect(chart.querySelector('[data-testid="context-chart-point"][aria-current="true"]')?.getAttribute('data-key')).toBe('c:c3')

      // The table: the same figures, one row per request; a row's call selects it.
      const table = chart.querySelector('[data-testid="context-chart-table"]') as HTMLDetailsElement
      expect(table.querySelector('table')).toBeNull()
      ;(table.querySelector('summary') as HTMLElement).click()
      await eventually(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(9))
      const summaryRow = [...table.querySelectorAll('tbody tr')].find((row) => row.children[7]?.textContent !== '') as HTMLTableRowElement
      expect(summaryRow.querySelector('button')?.textContent).toBe('c2')
      ;(table.querySelector('tbody tr:nth-child(3) button') as HTMLButtonElement).click()
      await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('c1'))
      expect(table.querySelector('tbody tr:nth-child(7)')?.textContent).toContain('retried')

      expect(await violations(chart)).toEqual([])
      const background = getComputedStyle(panel.query('.tl-root') as HTMLElement).backgroundColor
      expect(background).toBe('rgb(22, 26, 32)')
      expect(svgContrasts(chart, background)).toEqual([])
    } finally {
      panel.unmount()
    }
  })

  it.each([390, 1024, 1440])('fits %i px: no label overlaps another, labels at least 10 px, fewer on a phone', async (width) => {
    await page.viewport(width, 900)
    const entries = conversation(60)
    const panel = await renderPanel({
      entries,
      tab: 'calls',
      policy,
      width,
      height: 900,
      session: createSessionSource({ status: 'idle', threadId: 'unused', calls: recordsOf(entries) }),
    })
    try {
      const chart = await chartOf(panel)
      const svg = chart.querySelector('svg[data-testid="context-chart-svg"]') as SVGSVGElement
      const box = chart.getBoundingClientRect()
      expect(svg.getBoundingClientRect().width).toBeLessThanOrEqual(box.width)
      const labels = [...svg.querySelectorAll('text')].map((text) => text.getBoundingClientRect())
      for (const label of labels) {
        expect(label.height).toBeGreaterThanOrEqual(10)
        expect(label.left).toBeGreaterThanOrEqual(box.left - 1)
        expect(label.right).toBeLessThanOrEqual(box.right + 1)
      }
      for (const [index, a] of labels.entries())
        for (const b of labels.slice(index + 1))
          expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top, 'two labels overlap').toBe(true)
      const xLabels = chart.querySelectorAll('[data-testid="context-chart-x-label"]').length
      if (width === 390) expect(xLabels).toBeLessThanOrEqual(4)
      else expect(xLabels).toBeGreaterThan(4)
      expect(await violations(chart)).toEqual([])
    } finally {
      panel.unmount()
    }
  })

  it('draws 1,000 calls as runs, quickly, and still selects the call a run stands for', async () => {
    await page.viewport(1440, 900)
    const entries = conversation(750, 2)
    const records = recordsOf(entries)
    expect(records).toHaveLength(1_000)
    const panel = await renderPanel({
      entries,
      tab: 'calls',
      policy,
      height: 900,
      session: createSessionSource({ status: 'idle', threadId: 'unused', calls: records }),
    })
    try {
      const started = performance.now()
      const chart = await chartOf(panel)
      const took = performance.now() - started
      const svg = chart.querySelector('[data-testid="context-chart-svg"]') as SVGSVGElement
      const drawn = Number(svg.dataset['buckets'])
      expect(drawn).toBeLessThanOrEqual(240)
      expect(drawn).toBeLessThan(1_000)
      expect(chart.querySelectorAll('[data-testid="context-chart-point"]')).toHaveLength(drawn)
      expect(svg.getAttribute('aria-label')).toContain('Prompt size of 1,000 requests')
      // Rendering it all (tab, list and chart) stays well under a frozen page's seconds.
      expect(took).toBeLessThan(5_000)
      const first = chart.querySelector('[data-bucket="0"]') as SVGRectElement
      expect(first.getAttribute('aria-label')).toMatch(/^requests 1 to \d+ · sent at most/)
      first.dispatchEvent(new MouseEvent('click', { bubbles: true }))
      await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe(first.dataset['key']?.slice(2)))
    } finally {
      panel.unmount()
    }
  })

  it('draws one call as a dot, and says so in a sentence when no call has figures', async () => {
    const single: EntryInput[] = [
      { kind: 'message', payload: { role: 'user', content: 'hi' } },
      { kind: 'message', payload: { role: 'assistant', content: 'hello' }, refs: { callId: 'c0' } },
    ]
    const one = await renderPanel({
      entries: single,
      tab: 'calls',
      policy,
      session: createSessionSource({ status: 'idle', threadId: 'unused', calls: [{ callId: 'c0', policy, localInputTokens: 321 }] }),
    })
    try {
      const chart = await chartOf(one)
      expect(chart.querySelectorAll('[data-testid="context-chart-point"]')).toHaveLength(1)
      expect(chart.querySelectorAll('circle')).toHaveLength(1)
      expect(chart.querySelector('[data-testid="context-chart-point"]')?.getAttribute('aria-label')).toBe(
        'request 1, call c0 · sent 321 tokens · budget 8,000 tokens',
      )
    } finally {
      one.unmount()
    }
    const bare = await renderPanel({ entries: conversation(2), tab: 'calls', policy })
    try {
      expect((await bare.find('context-chart-empty')).textContent).toContain('no request recorded its token count or its policy')
      expect(bare.query('[data-testid="context-chart"]')).toBeNull()
    } finally {
      bare.unmount()
    }
  })
})
