import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { artifact, assistantMessages, collectErrors, devtools, meterNumbers, openChat, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

/** Every total/budget pair the meter shows from now on, recorded in the page. */
async function recordMeter(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: [number, number][] = []
    ;(window as unknown as { __meter: [number, number][] }).__meter = seen
    const read = () => {
      const element = document.querySelector('[data-testid="chat-token-meter"][data-status="ready"]')
      if (element !== null) seen.push([Number(element.getAttribute('data-total')), Number(element.getAttribute('data-budget'))])
    }
    read()
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      attributes: true,
      attributeFilter: ['data-total', 'data-budget'],
      childList: true,
    })
  })
}

/** The devtools timeline's colour for rows the request leaves out (#9aa4b2). */
const LEFT_OUT_GREY = 'rgb(154, 164, 178)'

test('long session: history leaves the window (greyed), the next send summarizes it, the meter never exceeds the budget', async ({
  page,
}, testInfo) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)
  await send(page, 'what is 12 * 7')
  // A memory note, for the contrast check at the end.
  await send(page, 'Remember that the ferry leaves at 7:15')
  await recordMeter(page)

  await page.getByRole('button', { name: 'Long session' }).click()
  await expect(page.getByTestId('chat-notice')).toContainText(
    /Appended 240 turns \(\d+ entries\)\. \d+ entries are now outside the context \(greyed\)/,
  )
  // Its last question is about something from 210 turns back: recall brings it into the next call.
  await expect(page.getByTestId('chat-notice')).toContainText(
    /Its last question asks about something from 210 turns back: recall brings \d+ older entries back into the next call; the best match is #\d+ \(matched [^)]*workshop/,
  )
  const appended = await storedEntries(page, threadId)
  expect(appended.length).toBeGreaterThan(600)
  await expect(page.getByTestId('entry-count')).toHaveText(String(appended.length))

  // Entries the next call leaves out are greyed in the chat and in the devtools timeline.
  await page.getByRole('button', { name: /^Show 150 earlier/ }).click()
  const dropped = page.locator('[data-testid="chat-message"][data-context="dropped"]').first()
  // Greyed by colour and a dashed edge, not by opacity (which would fail contrast).
  await expect(dropped).toHaveCSS('opacity', '1')
  await expect(dropped).toHaveCSS('border-top-style', 'dashed')
  await expect(dropped.locator('.chat-who')).toHaveCSS('color', 'rgb(95, 104, 117)')
  await expect(dropped.getByTestId('context-badge')).toHaveText('not sent: before the cache-friendly window')
  await expect(page.locator('[data-testid="chat-message"][data-context="included"]').last()).toHaveCSS('border-top-style', 'solid')
  const panel = devtools(page)
  await panel.getByTestId('tab-timeline').click()
  // The timeline follows the newest entries: scroll it to the oldest.
  await panel.getByTestId('timeline').evaluate((element) => element.scrollTo({ top: 0 }))
  // Greyed by colour (not opacity, which would fail contrast): the same grey for every left-out row.
  await expect(panel.locator('[data-testid="timeline-row"][data-state="dropped"]').first()).toHaveCSS('color', LEFT_OUT_GREY)
  const windowed = await meterNumbers(page)
  expect(windowed.total).toBeLessThanOrEqual(windowed.budget)

  // The next send summarizes what left the window first; the summary replaces it in the context.
  await send(page, 'where were we?')
  const summary = page.getByTestId('summary-card')
  await expect(summary).toHaveCount(1)
  await expect(summary).toHaveAttribute('data-context', 'summary')
  await expect(summary).toContainText(/replaces entries #0–#\d+/)
  await expect(assistantMessages(page).last()).toContainText('a summary of entries #0–#')
  await expect(page.locator('[data-testid="chat-message"][data-context="summarized"]').first()).toHaveCSS('border-top-style', 'dashed')
  await panel.getByTestId('timeline').evaluate((element) => element.scrollTo({ top: 0 }))
  await expect(panel.locator('[data-testid="timeline-row"][data-state="summarized"]').first()).toHaveCSS('color', LEFT_OUT_GREY)
  const stored = await storedEntries(page, threadId)
  expect(stored.filter((entry) => entry.kind === 'summary')).toHaveLength(1)
  // Nothing was rewritten: the summary was appended after what it covers.
  expect(stored.slice(0, appended.length)).toEqual(appended)

  const summarized = await meterNumbers(page)
  expect(summarized.total).toBeLessThanOrEqual(summarized.budget)
  await panel.getByTestId('tab-tokens').click()
  await expect(panel.getByTestId('token-meter')).toBeVisible()
  await panel.getByTestId('tab-timeline').click()
  await summary.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await artifact(page, testInfo, 'chat-long-session')

  // The meter stayed within the budget through all of it, the call in flight included.
  const seen = await page.evaluate(() => (window as unknown as { __meter: [number, number][] }).__meter)
  expect(seen.length).toBeGreaterThan(2)
  for (const [total, budget] of seen) expect(total).toBeLessThanOrEqual(budget)

  // Greyed entries, a memory note and the badges all read at 4.5:1 or more (the whole page, the panel included).
  await expect(page.locator('.chat-note-key').first()).toBeVisible()
  const contrast = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze()
  expect(contrast.violations.flatMap((violation) => violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`))).toEqual(
    [],
  )
  expect(errors).toEqual([])
})

test('long session: the devtools show the entries recalled for the last question, and the meter their tokens', async ({ page }) => {
  const errors = collectErrors(page)
  await openChat(page)
  await page.getByRole('button', { name: 'Long session' }).click()
  await expect(page.getByTestId('chat-notice')).toContainText('recall brings')
  const panel = devtools(page)
  await panel.getByTestId('tab-timeline').click()
  await panel.getByTestId('timeline-fate').selectOption('recalled')
  const recalled = panel.locator('[data-testid="timeline-row"][data-state="recalled"]')
  await expect(recalled.first()).toBeVisible()
  await expect(panel.locator('[data-testid="timeline-row"]:not([data-state="recalled"])')).toHaveCount(0)
  await expect(
    panel
      .getByTestId('recall-detail')
      .filter({ hasText: /^recalled: matched .*workshop/ })
      .first(),
  ).toBeVisible()
  await panel.getByTestId('tab-tokens').click()
  await expect(panel.getByTestId('meter-recall')).toContainText(/recalled entries [\d,]+/)
  await panel.getByTestId('tab-projection').click()
  await expect(panel.getByTestId('recall-note')).toHaveAttribute('data-status', 'sent')
  // The hit with the turns around it, in thread order: the hit itself may sit behind "show more".
  const recallSegment = panel.getByTestId('segment-recall')
  await recallSegment.getByRole('button', { name: /^show more/ }).click()
  await expect(recallSegment).toContainText('Oficina Azulejo')
  expect(errors).toEqual([])
})

test('switching the policy changes the projection and writes nothing to the thread', async ({ page }) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)
  await send(page, 'read the quarterly report')
  await page.getByRole('button', { name: 'Long session' }).click()
  await expect(page.getByTestId('chat-notice')).toBeVisible()
  const entries = await storedEntries(page, threadId)
  const count = String(entries.length)
  const short = await meterNumbers(page)
  const droppedShort = await page.locator('[data-context="dropped"]').count()
  expect(droppedShort).toBeGreaterThan(0)

  await page.getByTestId('chat-policy-select').selectOption('long')
  await expect(page.getByTestId('chat-token-meter')).toHaveAttribute('data-budget', '119808')
  const long = await meterNumbers(page)
  expect(long.total).toBeGreaterThan(short.total)
  expect(long.total).toBeLessThanOrEqual(long.budget)
  await expect(page.locator('[data-context="dropped"]')).toHaveCount(0)

  await page.getByTestId('chat-policy-select').selectOption('tool-focused')
  await expect(page.getByTestId('chat-token-meter')).toHaveAttribute('data-budget', '27904')
  await expect(page.locator('[data-testid="tool-card"][data-context="dropped"]').first()).toBeVisible()

  await page.getByTestId('chat-policy-select').selectOption('model:claude-haiku-4-5')
  await expect(page.getByTestId('chat-token-meter')).not.toHaveAttribute('data-budget', '27904')

  // The devtools preview other policies too, and write nothing either.
  const panel = devtools(page)
  await panel.getByTestId('policy-select').selectOption('preset:short')
  await expect(panel.getByTestId('preview-badge')).toBeVisible()

  await expect(page.getByTestId('entry-count')).toHaveText(count)
  expect(await storedEntries(page, threadId)).toEqual(entries)
  await page.getByTestId('chat-policy-select').selectOption('short')
  expect((await meterNumbers(page)).total).toBe(short.total)
  expect(await storedEntries(page, threadId)).toEqual(entries)
  expect(errors).toEqual([])
})
