import { readFile } from 'node:fs/promises'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { collectErrors, rowStates } from './chat-page'

// The sample thread's hostile entries (demo/src/lab/sample-thread.ts), repeated on purpose: the test
// checks what a user sees, not what the code exports.
const hostileMessage = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
const hostileLink = '<a href="javascript:window.__xss=3">x</a>'

test.use({ viewport: { width: 1280, height: 900 } })

/** Opens the devtools and waits for the first projection (the o200k counter is a lazy ~1 MB chunk). */
async function openPanel(page: Page): Promise<Locator> {
  const devtools = page.getByTestId('threadlens-devtools')
  await devtools.getByTestId('devtools-toggle').click()
  await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  return devtools
}

test('open the panel, switch a preset: the meter and the timeline change, dropped entries are greyed', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await page.goto('/?view=lab')
  const devtools = await openPanel(page)
  const meter = devtools.getByTestId('meter-compact')
  const initialTotal = Number(await meter.getAttribute('data-total'))
  expect(initialTotal).toBeGreaterThan(0)
  await expect(devtools.getByTestId('segment-system')).toBeVisible()
  await expect(devtools.getByTestId('segment-history')).toBeVisible()

  const screenshotPath = testInfo.outputPath('devtools-open.png')
  await page.screenshot({ path: screenshotPath })
  await testInfo.attach('devtools-open', { path: screenshotPath, contentType: 'image/png' })

  await devtools.getByTestId('tab-timeline').click()
  await expect(devtools.getByTestId('timeline-row').first()).toBeVisible()
  const before = await rowStates(devtools)

  await devtools.getByTestId('policy-select').selectOption('tiny')
  await expect(meter).not.toHaveAttribute('data-total', String(initialTotal))
  expect(Number(await meter.getAttribute('data-total'))).toBeLessThan(initialTotal)
  await expect(devtools.getByTestId('preview-badge')).toBeVisible()
  const dropped = devtools.locator('[data-testid="timeline-row"][data-state="dropped"][data-fate="budget"]').first()
  await expect(dropped).toBeVisible()
  // Greyed by colour (readable, enough contrast), not by opacity.
  await expect(dropped).toHaveCSS('color', 'rgb(154, 164, 178)')
  const after = await rowStates(devtools)
  const newlyDropped = [...after].filter(([seq, state]) => state === 'dropped' && before.get(seq) !== 'dropped')
  expect(newlyDropped.length).toBeGreaterThan(0)

  await devtools.getByTestId('tab-tokens').click()
  await expect(devtools.getByTestId('token-meter')).toHaveAttribute('data-budget', '768')
  await expect(devtools.getByTestId('meter-counter')).toHaveText('exact · o200k_base')

  const tinyPath = testInfo.outputPath('devtools-tiny.png')
  await page.screenshot({ path: tinyPath })
  await testInfo.attach('devtools-tiny', { path: tinyPath, contentType: 'image/png' })
  expect(errors).toEqual([])
})

test('hostile markup in messages and tool output stays inert text in every tab', async ({ page }) => {
  const errors = collectErrors(page)
  await page.goto('/?view=lab')
  const devtools = await openPanel(page)
  // The app's short preset masks old tool output; the long one sends the hostile tool result as is.
  await devtools.getByTestId('policy-select').selectOption('preset:long')
  const messages = devtools.getByTestId('projected-messages')
  await expect(messages.getByText(hostileMessage, { exact: false }).first()).toBeVisible()
  await expect(messages.getByText(hostileLink, { exact: false }).first()).toBeVisible()

  for (const format of ['openai', 'anthropic'] as const) {
    await devtools.getByTestId(`format-${format}`).click()
    await expect(devtools.getByTestId('request-json')).toContainText('window.__xss=2')
  }
  await devtools.getByTestId('tab-timeline').click()
  await devtools.locator('[data-testid="timeline-row"][data-seq="32"]').click()
  await expect(devtools.getByTestId('entry-detail')).toContainText('javascript:window.__xss=3')
  await devtools.getByTestId('tab-views').click()
  await expect(devtools.getByTestId('reasoning-view')).toContainText('javascript:window.__xss=3')
  await devtools.getByTestId('tab-calls').click()
  // The newest attempt (the sample's stopped call) replays the whole request, hostile entries included.
  await expect(devtools.getByTestId('attempt-detail')).toBeVisible()
  await expect(devtools.getByTestId('attempt-detail')).toContainText(hostileMessage)

  const active = await page.evaluate(() => {
    const root = document.querySelector('[data-testid="threadlens-devtools"]')?.shadowRoot
    return {
      elements: root?.querySelectorAll('img, script, iframe, object, embed').length ?? -1,
      links: root?.querySelectorAll('a[href]').length ?? -1,
      xss: (window as unknown as { __xss?: unknown }).__xss ?? null,
    }
  })
  expect(active).toEqual({ elements: 0, links: 0, xss: null })
  expect(errors).toEqual([])
})

test('export the thread as JSONL and the projection as JSON (downloads)', async ({ page }) => {
  await page.goto('/?view=lab')
  const devtools = await openPanel(page)
  await devtools.getByTestId('tab-storage').click()
  await expect(devtools.getByTestId('storage-persistent')).toHaveText('IndexedDB')
  await expect(devtools.getByTestId('storage-usage')).toContainText('MB of')

  const threadDownload = page.waitForEvent('download')
  await devtools.getByTestId('export-thread').click()
  const thread = await threadDownload
  expect(thread.suggestedFilename()).toBe('sample-trip-japan.jsonl')
  const lines = (await readFile(await thread.path(), 'utf8')).trim().split('\n')
  expect(lines.length).toBe(1 + 43)
  expect(JSON.parse(lines[43] as string).seq).toBe(42)

  const projectionDownload = page.waitForEvent('download')
  await devtools.getByTestId('export-projection').click()
  const projection = JSON.parse(await readFile(await (await projectionDownload).path(), 'utf8'))
  expect(projection.threadId).toBe('sample-trip-japan')
  expect(projection.meta.tokens.total).toBeGreaterThan(0)
})

test('keyboard shortcut, docking and remembered state; live appends reach the open panel', async ({ page }) => {
  await page.goto('/?view=lab')
  const devtools = page.getByTestId('threadlens-devtools')
  await expect(devtools.getByTestId('devtools-toggle')).toBeVisible()
  await page.keyboard.press('Alt+Shift+KeyD')
  await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  await devtools.getByTestId('dock-right').click()
  await expect(devtools.getByTestId('devtools-frame')).toHaveAttribute('data-dock', 'right')
  await devtools.getByTestId('tab-timeline').click()

  await page.reload()
  await expect(devtools.getByTestId('devtools-frame')).toHaveAttribute('data-dock', 'right', { timeout: 30_000 })
  await expect(devtools.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true')
  await expect(devtools.locator('[data-testid="timeline-row"][data-seq="42"]')).toBeVisible({ timeout: 30_000 })

  // An entry committed to IndexedDB shows up in the open panel.
  await page.waitForFunction(() => (window as unknown as { __threadlensDemo?: unknown }).__threadlensDemo !== undefined)
  await page.evaluate(() => (window as unknown as { __threadlensDemo: { append(count: number): Promise<void> } }).__threadlensDemo.append(1))
  await expect(devtools.locator('[data-testid="timeline-row"][data-seq="43"]')).toBeVisible()

  await page.keyboard.press('Alt+Shift+KeyD')
  await expect(devtools.getByTestId('devtools-toggle')).toBeVisible()
})

test('what was sent, what took the room, what fell out and why, what changed', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await page.goto('/?view=lab')
  const devtools = await openPanel(page)
  const shoot = async (name: string) => {
    const path = testInfo.outputPath(`${name}.png`)
    await page.screenshot({ path })
    await testInfo.attach(name, { path, contentType: 'image/png' })
  }

  // What fell out and why: the Projection tab groups what is not sent by reason.
  const leftOut = devtools.getByTestId('left-out')
  await expect(leftOut).toBeVisible()
  await expect(leftOut.getByTestId('left-out-group').first()).toBeVisible()
  // The sample fits the app's policy whole: its summary is left out as not needed.
  await expect(leftOut.locator('[data-reason="unneeded"]')).toContainText(
    'Not sent: this summary is not needed, because the turns it covers all fit and are sent word for word.',
  )
  await expect(leftOut.locator('[data-reason="unneeded"] [data-testid="left-out-why"]')).toHaveAttribute(
    'title',
    'rule: a summary whose entries all fit: they are sent as they are instead',
  )
  await shoot('insight-projection')

  // What took the room: the treemap, its largest consumer, and its entries one click away.
  await devtools.getByTestId('tab-tokens').click()
  const map = devtools.getByTestId('context-map')
  await expect(map.getByTestId('context-tile').first()).toBeVisible()
  await map.getByTestId('context-largest').getByRole('button').first().click()
  const block = devtools.getByTestId('context-block')
  await expect(block.getByTestId('context-block-message').first()).toBeVisible()
  await shoot('insight-tokens')
  const seqLink = block.getByRole('button', { name: /^#\d+$/ }).first()
  const seq = ((await seqLink.textContent()) ?? '').slice(1)
  await seqLink.click()
  await expect(devtools.getByTestId('entry-detail')).toHaveAttribute('data-seq', seq)
  await expect(devtools.locator(`[data-testid="timeline-row"][data-seq="${seq}"] [data-testid="fate-badge"]`)).toBeVisible()

  // The timeline narrowed to what was left out.
  await devtools.getByTestId('timeline-fate').selectOption('left-out')
  await expect(devtools.getByTestId('timeline-row').first()).toBeVisible()
  const states = await devtools.getByTestId('timeline-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')))
  expect(states.every((state) => state === 'dropped' || state === 'summarized')).toBe(true)
  await shoot('insight-timeline')

  // What changed: the lab sets both requests side by side with the entries' text.
  await devtools.getByTestId('tab-lab').click()
  await devtools.getByTestId('lab-preset:long').click()
  const after = devtools.getByTestId('lab-after')
  await expect(after.locator('[data-change]').first()).toBeVisible()
  expect(
    Number(await devtools.getByTestId('lab-entered').getAttribute('data-count')) +
      Number(await devtools.getByTestId('lab-reshaped').getAttribute('data-count')),
  ).toBeGreaterThan(0)
  await shoot('insight-lab')
  await devtools.getByTestId('lab-app').click()

  // Views: each explained; any message's tokens on demand.
  await devtools.getByTestId('tab-views').click()
  await expect(devtools.getByTestId('conversation-explain')).toBeVisible()
  await expect(devtools.getByTestId('reasoning-explain')).toBeVisible()
  await devtools.getByTestId('conversation-view').getByTestId('token-toggle').last().click()
  const tokens = devtools.getByTestId('token-text')
  await expect(tokens).toBeVisible({ timeout: 30_000 })
  expect(Number(await tokens.getAttribute('data-tokens'))).toBeGreaterThan(0)
  await shoot('insight-views')
  expect(errors).toEqual([])
})
