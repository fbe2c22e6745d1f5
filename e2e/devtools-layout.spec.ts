import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { artifact, collectErrors, copyToDocs, resizeByKeyboard } from './chat-page'
import { acrossScrolling, overlaps, sidewaysScrolling, squeezedText } from './layout-checks'

// The devtools panel at the widths people use it: the narrowest phones (360), a phone (390), the old
// 40 % column at 1440 (555), a tablet (800) and a full-width bottom dock (1440). For every tab at
// every width, scrolled through from top to bottom (every scrolling region of the panel, so what lies
// out of sight is checked too): no two visible controls or text blocks overlap, no text is squeezed
// to one word per line, nothing but the tab strip scrolls sideways, and axe finds nothing critical or
// serious. The Policy lab is checked with a preview policy (both lists, every message, marked
// leaving or changing form), the timeline with an entry open, and Calls on an aborted, a retried and
// an answered call (the sample's call log has retried, failed and aborted attempts). A screenshot of
// each is saved as a test artifact (test-results/, gitignored); `npm run screenshots` also copies the
// 555 px ones, cropped to the panel, to docs/screenshots. Each width prints how long it took and how many views it checked.

const widths = [360, 390, 555, 800, 1440] as const
const tabs = ['projection', 'tokens', 'timeline', 'views', 'lab', 'calls', 'memory', 'storage'] as const
const storageKey = 'threadlens-devtools'

/** Opens the lab with the panel docked at the bottom, filling the viewport's width. */
async function openLab(page: Page, width: number): Promise<Locator> {
  await page.setViewportSize({ width, height: 900 })
  await page.addInitScript(
    ([key]) => {
      if (localStorage.getItem(key as string) !== null) return
      localStorage.setItem(key as string, JSON.stringify({ state: { open: true, dock: 'bottom', size: 600, tab: 'projection' }, version: 2 }))
    },
    [storageKey],
  )
  await page.goto('/?view=lab')
  const devtools = page.getByTestId('threadlens-devtools')
  await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  return devtools
}

/** Everything wrong with the panel as it is now, in every view of every scroller; and how many views were checked. */
async function checkTab(page: Page, label: string): Promise<{ readonly failures: string[]; readonly views: number }> {
  const failures = (await sidewaysScrolling(page)).map((item) => `${label}: scrolls sideways: ${item}`)
  // The same overlap seen in several views is reported once, where it was first seen.
  const seen = new Set<string>()
  const report = (key: string, text: string) => {
    if (seen.has(key)) return
    seen.add(key)
    failures.push(text)
  }
  const views = await acrossScrolling(page, async (where) => {
    for (const item of await overlaps(page))
      report(`${item.first}|${item.second}`, `${label}, ${where}: ${item.first} overlaps ${item.second} by ${item.width}×${item.height} px`)
    for (const item of await squeezedText(page)) report(item, `${label}, ${where}: one word per line: ${item}`)
  })
  const axe = await new AxeBuilder({ page }).include('[data-testid="threadlens-devtools"]').analyze()
  failures.push(
    ...axe.violations
      .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious' || violation.id === 'heading-order')
      .map((violation) => `${label}: ${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
  )
  return { failures, views }
}

/** The states of a tab worth checking, each set up by its function (the tab is open already). */
function statesOf(tab: (typeof tabs)[number], devtools: Locator): { readonly name: string; readonly setUp: () => Promise<void> }[] {
  const attempt = (callId: string, status: string) =>
    devtools.locator(`[data-testid="attempt-row"][data-call-id="${callId}"][data-status="${status}"]`)
  switch (tab) {
    case 'timeline':
      return [
        {
          name: 'timeline',
          setUp: async () => {
            await devtools.locator('[data-testid="timeline-row"][data-seq="40"]').click()
            await expect(devtools.getByTestId('entry-detail')).toBeVisible()
            await expect(devtools.locator('[data-testid="timeline-row"][data-seq="40"] [data-testid="fate-badge"]')).toBeVisible()
          },
        },
      ]
    case 'lab':
      return [
        {
          name: 'lab',
          // A preview policy small enough that messages leave and change form, every message listed.
          setUp: async () => {
            await devtools.getByTestId('lab-tiny').click()
            await devtools.getByTestId('lab-show-all').check()
            await expect(devtools.locator('[data-testid="lab-before"] [data-change="leaving"]').first()).toBeVisible()
            await expect(devtools.locator('[data-testid="lab-after"] [data-change="changed"]').first()).toBeVisible()
            await expect(devtools.locator('[data-testid="lab-after"] [data-testid="lab-message"]:not([data-change])').first()).toBeAttached()
          },
        },
      ]
    case 'calls':
      return [
        {
          name: 'calls',
          // The newest row is open: the call the user stopped, and its diff from the failed one before it.
          setUp: async () => {
            await expect(attempt('c20', 'retried')).toBeVisible()
            await expect(attempt('c20', 'failed')).toBeVisible()
            await expect(devtools.getByTestId('attempt-detail')).toHaveAttribute('data-attempt-id', 'c21#1')
            await expect(devtools.getByTestId('attempt-status')).toHaveText('aborted')
            await expect(devtools.getByTestId('call-diff')).toBeVisible()
          },
        },
        {
          name: 'calls-retried',
          setUp: async () => {
            await attempt('c10', 'retried').click()
            await expect(devtools.getByTestId('attempt-error')).toContainText('HTTP 429')
            await expect(devtools.getByTestId('call-diff')).toBeVisible()
          },
        },
        {
          name: 'calls-answered',
          setUp: async () => {
            await devtools.locator('[data-testid="call-row"][data-call-id="c10"]').click()
            await expect(devtools.getByTestId('call-detail')).toHaveAttribute('data-call-id', 'c10')
            await expect(devtools.getByTestId('call-diff')).toContainText('vs try 1 of this call')
          },
        },
      ]
    default:
      return [{ name: tab, setUp: async () => {} }]
  }
}

for (const width of widths) {
  test(`every tab at ${width} px, scrolled through: nothing overlaps, axe finds nothing serious, screenshots saved`, async ({ page }, testInfo) => {
    test.setTimeout(300_000)
    const started = Date.now()
    const errors = collectErrors(page)
    const devtools = await openLab(page, width)
    const failures: string[] = []
    let views = 0
    for (const tab of tabs) {
      await devtools.getByTestId(`tab-${tab}`).click()
      await expect(devtools.getByTestId(`tab-${tab}`)).toHaveAttribute('aria-selected', 'true')
      // Let the tab's lazy data (projection, storage estimate) arrive before looking at it.
      await page.waitForTimeout(250)
      for (const state of statesOf(tab, devtools)) {
        await state.setUp()
        const path = testInfo.outputPath(`devtools-${state.name}-${width}.png`)
        await page.screenshot({ path })
        await testInfo.attach(`devtools-${state.name}-${width}`, { path, contentType: 'image/png' })
        // The docs show every tab's panel (cropped to it) at the width of a side column (the old 40 % of 1440).
        if (width === 555 && state.name === tab)
          await copyToDocs(await artifact(page, testInfo, `devtools-${tab}-panel`, devtools.getByTestId('devtools-frame')), `devtools-${tab}`)
        const checked = await checkTab(page, `${state.name} at ${width} px`)
        failures.push(...checked.failures)
        views += checked.views
      }
      // The lab's preview applies to every tab: back to the app's policy for the rest.
      if (tab === 'lab') await devtools.getByTestId('lab-app').click()
    }
    console.log(`[devtools layout] ${width} px: ${views} views of ${tabs.length} tabs checked in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    expect(failures).toEqual([])
    expect(errors).toEqual([])
  })
}

test('a bad remembered state falls back to defaults; docking, keyboard resize, filters and focus are remembered', async ({ page }) => {
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  // Written once (not on reload): a stale, hand-edited state with one valid field.
  await page.addInitScript(
    ([key]) => {
      if (sessionStorage.getItem('seeded') !== null) return
      sessionStorage.setItem('seeded', '1')
      localStorage.setItem(
        key as string,
        JSON.stringify({ state: { open: true, dock: 'left', size: 'big', tab: 'nope', filters: { __proto__: 1 } }, version: 2 }),
      )
    },
    [storageKey],
  )
  await page.goto('/?view=lab')
  const devtools = page.getByTestId('threadlens-devtools')
  const frame = devtools.getByTestId('devtools-frame')
  await expect(frame).toHaveAttribute('data-dock', 'bottom', { timeout: 30_000 })
  await expect(devtools.getByTestId('tab-projection')).toHaveAttribute('aria-selected', 'true')
  await expect(devtools.getByTestId('panel-thread-title')).toHaveText('Trip to Japan (sample)')
  // The page's policy under the page's own name for it.
  await expect(devtools.getByTestId('policy-select').locator('option[value="app"]')).toHaveText('app: short context (8k)')

  await resizeByKeyboard(page)

  // Tabs follow the WAI-ARIA pattern: arrows move and select.
  await devtools.getByTestId('tab-projection').focus()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(devtools.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true')
  await devtools.getByTestId('filter-tool_call').click()
  await expect(devtools.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'false')

  await devtools.getByTestId('dock-floating').click()
  await expect(frame).toHaveAttribute('data-dock', 'floating')
  const box = await frame.boundingBox()
  await devtools.getByTestId('devtools-resize').focus()
  await page.keyboard.press('ArrowRight')
  await devtools.getByTestId('devtools-move').focus()
  await page.keyboard.press('ArrowDown')
  await expect.poll(async () => (await frame.boundingBox())?.width).toBe((box?.width ?? 0) + 20)
  await expect.poll(async () => (await frame.boundingBox())?.y).toBe((box?.y ?? 0) + 20)
  const moved = await frame.boundingBox()

  await page.reload()
  await expect(frame).toHaveAttribute('data-dock', 'floating', { timeout: 30_000 })
  expect(await frame.boundingBox()).toEqual(moved)
  await expect(devtools.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true')
  await expect(devtools.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'false')

  // Closing returns focus to where it came from (the toggle button that replaced the panel).
  await devtools.getByTestId('devtools-close').click()
  await expect(devtools.getByTestId('devtools-toggle')).toBeFocused()
  expect(errors).toEqual([])
})

test("every tab's filters are remembered across a reload; a bad remembered filter reads as its default", async ({ page }) => {
  const errors = collectErrors(page)
  const devtools = await openLab(page, 1280)
  const count = devtools.getByTestId('timeline-count')
  // Timeline: kinds, fate and text.
  await devtools.getByTestId('tab-timeline').click()
  await devtools.getByTestId('filter-tool_call').click()
  await devtools.getByTestId('timeline-fate').selectOption('left-out')
  await devtools.getByTestId('timeline-search').fill('kyoto')
  await expect(devtools.getByTestId('timeline-row').first()).toBeVisible()
  const filtered = await count.textContent()
  expect(await devtools.getByTestId('timeline-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')))).not.toContain(
    'included',
  )
  // Projection: the request format. Views: one view. Policy lab: unchanged messages shown too.
  await devtools.getByTestId('tab-projection').click()
  await devtools.getByTestId('format-openai').click()
  await devtools.getByTestId('tab-views').click()
  await devtools.getByTestId('view-reasoning').click()
  await devtools.getByTestId('tab-lab').click()
  await devtools.getByTestId('lab-preset:long').click()
  await devtools.getByTestId('lab-show-all').check()

  await page.reload()
  await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  // The preview policy is not a filter: the lab opens on the app policy again, its list choice kept.
  await devtools.getByTestId('lab-preset:long').click()
  await expect(devtools.getByTestId('lab-show-all')).toBeChecked()
  await devtools.getByTestId('lab-app').click()
  await devtools.getByTestId('tab-views').click()
  await expect(devtools.getByTestId('view-reasoning')).toHaveAttribute('aria-checked', 'true')
  await expect(devtools.getByTestId('conversation-view')).toHaveCount(0)
  await devtools.getByTestId('tab-projection').click()
  await expect(devtools.getByTestId('format-openai')).toHaveAttribute('aria-checked', 'true')
  await expect(devtools.getByTestId('request-json')).toBeVisible()
  await devtools.getByTestId('tab-timeline').click()
  await expect(devtools.getByTestId('timeline-fate')).toHaveValue('left-out')
  await expect(devtools.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'false')
  await expect(devtools.getByTestId('timeline-search')).toHaveValue('kyoto')
  await expect(count).toHaveText(filtered ?? '')

  // Values no version of the panel offers (a hand edit, another version's) read as the defaults;
  // the valid text filter beside them is kept.
  await page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { state: { filters: Record<string, unknown> } }
    stored.state.filters = {
      'timeline-fate': 'dropped:nonsense',
      'timeline-text': 'kyoto',
      'projection-format': 'xml',
      'views-mode': ['reasoning'],
      'lab-messages': 'some',
    }
    localStorage.setItem(key, JSON.stringify(stored))
  }, storageKey)
  await page.reload()
  await expect(devtools.getByTestId('timeline-fate')).toHaveValue('all', { timeout: 30_000 })
  await expect(devtools.getByTestId('timeline-search')).toHaveValue('kyoto')
  await expect(devtools.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'true')
  await devtools.getByTestId('tab-projection').click()
  await expect(devtools.getByTestId('format-neutral')).toHaveAttribute('aria-checked', 'true')
  await devtools.getByTestId('tab-views').click()
  await expect(devtools.getByTestId('view-both')).toHaveAttribute('aria-checked', 'true')
  await devtools.getByTestId('tab-lab').click()
  await devtools.getByTestId('lab-preset:long').click()
  await expect(devtools.getByTestId('lab-show-all')).not.toBeChecked()
  expect(errors).toEqual([])
})
