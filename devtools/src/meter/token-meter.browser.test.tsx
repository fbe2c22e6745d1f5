import { createThread, createTokenCounter, definePolicy, project, type ProjectionMeta } from '@threadlens/core'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ThreadlensTokenMeter, type ThreadlensTokenMeterProps } from '../index'
import { ThreadlensTokenMeter as ProductionTokenMeter } from '../production'
import { meterLegendIds } from '../testing/meter-legend'

let counter: Awaited<ReturnType<typeof createTokenCounter>>
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

/** The meta of a projection whose history fills about `share` of a 1,000-token input budget. */
function metaFilling(share: number, exact = false): ProjectionMeta {
  const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 1200, reserveOutputTokens: 200, systemPrompt: '' })
  const metaFor = (words: number): ProjectionMeta => {
    const thread = createThread({ id: `meter-${share}`, now: () => 1 })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'word '.repeat(words) } })
    return project({ thread, policy, counter }).meta
  }
  // A few steps of scaling the message to the share asked for.
  let words = 100
  for (let step = 0; step < 4; step++) words = Math.max(1, Math.round((words * share * 1000) / metaFor(words).tokens.total))
  const meta = metaFor(words)
  expect(Math.abs(meta.tokens.total / 1000 - share)).toBeLessThan(0.02)
  return exact ? { ...meta, counter: { ...meta.counter, exact: true } } : meta
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** Renders meters into the page; returns their hosts (`data-testid="meter-N"`). */
function render(...meters: ThreadlensTokenMeterProps[]): HTMLElement[] {
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  flushSync(() => root.render(meters.map((props, index) => <ThreadlensTokenMeter key={index} data-testid={`meter-${index}`} {...props} />)))
  cleanups.push(() => {
    flushSync(() => root.unmount())
    container.remove()
  })
  return meters.map((_, index) => container.querySelector(`[data-testid="meter-${index}"]`) as HTMLElement)
}

function inside(host: HTMLElement, selector: string): HTMLElement {
  const found = host.shadowRoot?.querySelector<HTMLElement>(selector)
  if (found === null || found === undefined) throw new Error(`no ${selector} in the meter's shadow root`)
  return found
}

describe('ThreadlensTokenMeter', () => {
  it('says it is counting until there is a projection, then shows the parts against the input budget on its host and in an accessible meter', () => {
    const meta = metaFilling(0.5)
    const [loading, ready] = render({ meta: undefined }, { meta, label: 'Tokens of the next call' }) as [HTMLElement, HTMLElement]
    expect(loading.dataset['status']).toBe('loading')
    expect(inside(loading, '[role="status"]').textContent).toBe('counting tokens…')
    expect(ready.dataset).toMatchObject({ status: 'ready', total: String(meta.tokens.total), budget: '1000', exact: 'false', level: 'ok' })
    const bar = inside(ready, '[role="meter"]')
    expect(bar.getAttribute('aria-label')).toBe('Tokens of the next call')
    expect(bar.getAttribute('aria-valuemax')).toBe('1000')
    expect(bar.getAttribute('aria-valuenow')).toBe(String(meta.tokens.total))
    expect(bar.getAttribute('aria-valuetext')).toMatch(/^\d+ of 1,000 tokens \(\d+%\), estimated: system \d+, history \d+$/)
    // Estimates are marked as such; the numbers are the attributes'.
    expect(ready.shadowRoot?.textContent).toContain('(estimated)')
    expect(inside(ready, '[data-testid="meter-total"]').textContent).toBe(`≈${meta.tokens.total}`)
    expect(inside(ready, '[data-testid="meter-budget"]').textContent).toBe('1,000')
    // The history part is drawn as its share of the input budget.
    expect(inside(ready, '.tl-part-history').style.width).toBe(`${(meta.tokens.history / 1000) * 100}%`)
  })

  it('turns amber over 75% and red over 90% of the input budget, and drops the estimate mark for exact counts', () => {
    const [ok, amber, red] = render({ meta: metaFilling(0.7, true) }, { meta: metaFilling(0.8, true) }, { meta: metaFilling(0.95, true) }) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ]
    expect([ok, amber, red].map((host) => host.dataset['level'])).toEqual(['ok', 'amber', 'red'])
    expect([ok, amber, red].map((host) => host.dataset['exact'])).toEqual(['true', 'true', 'true'])
    expect(red.shadowRoot?.textContent).not.toContain('estimated')
    expect(inside(red, '[data-testid="meter-total"]').textContent).not.toContain('≈')
    // The fill is coloured by level: three different colours.
    const colours = [ok, amber, red].map((host) => getComputedStyle(inside(host, '.tl-meter-fill')).color)
    expect(new Set(colours).size).toBe(3)
  })

  it('in full: the counter, the warnings and every part with its tokens and share, reserved output apart', () => {
    const meta = metaFilling(0.5)
    const [full] = render({ meta, variant: 'full' }) as [HTMLElement]
    expect(inside(full, '[data-testid="meter-counter"]').textContent).toBe('estimated · heuristic')
    // The estimate that stands in while an exact encoding loads says what it waits for.
    const [standIn] = render({ meta: { ...meta, counter: { id: 'o200k_base~estimate', exact: false } }, variant: 'full' }) as [HTMLElement]
    expect(inside(standIn, '[data-testid="meter-counter"]').textContent).toBe('estimated until o200k_base loads')
    expect(inside(standIn, '[data-testid="meter-total"]').textContent).toBe(`≈${meta.tokens.total}`)
    const parts = [...(full.shadowRoot?.querySelectorAll<HTMLElement>('[data-testid="meter-legend"] > li') ?? [])]
    expect(parts.map((part) => part.dataset['testid'])).toEqual(meterLegendIds)
    expect(parts[6]?.textContent).toBe('reserved output 200(for output)')
    expect(inside(full, '[data-testid="meter-reserved-bar"]').textContent).toContain('+200 reserved')
  })

  it("keeps its own look whatever the page's CSS says, and its CSS never styles the page", () => {
    const hostile = document.createElement('style')
    hostile.textContent = `
      body { letter-spacing: 6px; text-transform: uppercase; color: rgb(255, 0, 0); font: 30px serif; }
      span, div, ul, li { display: block !important; height: 200px !important; background: rgb(255, 0, 0) !important; }
      .tl-meter-bar, .tl-part-history { height: 90px !important; width: 5px !important; }`
    document.head.append(hostile)
    cleanups.push(() => hostile.remove())
    const outside = document.createElement('span')
    outside.className = 'tl-part-history tl-meter-bar'
    document.body.append(outside)
    cleanups.push(() => outside.remove())
    const [meter] = render({ meta: metaFilling(0.5) }) as [HTMLElement]
    const bar = inside(meter, '.tl-meter-bar')
    expect(getComputedStyle(bar).height).toBe('10px')
    expect(getComputedStyle(bar).display).toBe('flex')
    const numbers = getComputedStyle(inside(meter, '.tl-meter-numbers'))
    expect([numbers.fontSize, numbers.textTransform, numbers.letterSpacing]).toEqual(['12px', 'none', 'normal'])
    expect(numbers.color).not.toBe('rgb(255, 0, 0)')
    // The meter's part colours stay inside it: the page's element of the same classes keeps the page's styles.
    expect(getComputedStyle(outside).backgroundColor).toBe('rgb(255, 0, 0)')
    expect(getComputedStyle(outside).height).toBe('90px')
    expect(getComputedStyle(inside(meter, '.tl-part-history')).backgroundColor).toBe('rgb(47, 111, 222)')
  })

  it('is the same component from the production entry point', () => {
    expect(ProductionTokenMeter).toBe(ThreadlensTokenMeter)
  })
})
