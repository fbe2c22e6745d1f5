import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
// Repeated on purpose: the chat-page helpers this spec uses, as e2e/chat-narrow.spec.ts imports them (an import list).
import {
  artifact,
  collectErrors,
  composer,
  devtools,
  devtoolsToggle,
  dockDevtools,
  isUncovered,
  meter,
  openChat,
  openDevtools,
  resizeByKeyboard,
  send,
} from './chat-page'

// The chat with the devtools it installs (`<ThreadlensDevtools>`, opened from the header): at a
// phone, a tablet and a desktop width, closed and in each dock, the chat stays usable beside the
// panel and axe finds nothing critical or serious on the whole page; the panel's state survives a
// reload; the page can be used from the keyboard (skip links, one tab stop per chat, focus back on
// the toggle). Screenshots of each width with the panel docked are saved as test artifacts.

const sizes = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const
const docks = ['bottom', 'right', 'floating'] as const

/** Critical and serious axe violations on the whole page, the devtools' shadow root included. */
async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  const found: string[] = []
  for (const violation of result.violations) {
    if (violation.impact !== 'critical' && violation.impact !== 'serious') continue
    found.push(`${label}: ${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  }
  return found
}

for (const size of sizes) {
  test(`${size.width} px: closed and in each dock, the chat stays usable and axe finds nothing serious`, async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const errors = collectErrors(page)
    await page.setViewportSize(size)
    await openChat(page)
    await send(page, 'What is 17% of 2,340?')

    // Closed: the header's Devtools button says so, and nothing of the panel is drawn.
    if ((await devtoolsToggle(page).getAttribute('aria-expanded')) === 'true') await devtoolsToggle(page).click()
    await expect(devtools(page).getByTestId('devtools-frame')).toHaveCount(0)
    const found = await seriousViolations(page, `${size.width} px, closed`)

    const panel = await openDevtools(page)
    for (const dock of docks) {
      await dockDevtools(page, dock)
      await expect(panel.getByTestId('meter-compact')).toBeVisible()
      if (dock !== 'floating') {
        // Docked, the panel takes its edge and the chat the rest: the meter, the conversation and
        // the composer are all still in reach (a right dock shows at the bottom on a phone).
        const edge = dock === 'right' && size.width < 640 ? 'bottom' : dock
        await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-edge', edge)
        expect(await isUncovered(meter(page)), `${dock}: meter`).toBe(true)
        expect(await isUncovered(composer(page)), `${dock}: composer`).toBe(true)
        expect(await isUncovered(page.getByTestId('chat-message').last()), `${dock}: last message`).toBe(true)
        const chat = await page.getByTestId('chat-view').boundingBox()
        const frame = await panel.getByTestId('devtools-frame').boundingBox()
        expect(chat, dock).not.toBeNull()
        expect(frame, dock).not.toBeNull()
        if (chat !== null && frame !== null) {
          if (edge === 'bottom') expect(chat.y + chat.height, dock).toBeLessThanOrEqual(frame.y + 1)
          else expect(chat.x + chat.width, dock).toBeLessThanOrEqual(frame.x + 1)
          // Enough of the conversation to read: at least 120 px tall and 300 px wide.
          expect(chat.height, dock).toBeGreaterThanOrEqual(120)
          expect(chat.width, dock).toBeGreaterThanOrEqual(Math.min(300, size.width - 40))
        }
      }
      found.push(...(await seriousViolations(page, `${size.width} px, ${dock}`)))
      // (The README's come from e2e/views-layout.spec.ts, after a long session.)
      if (dock === (size.width < 640 ? 'bottom' : 'right')) await artifact(page, testInfo, `chat-docked-${size.width}`)
    }
    expect(found).toEqual([])
    expect(errors).toEqual([])
  })
}

test("the panel's open state, dock, size, tab and filters survive a reload, and closed stays closed", async ({ page }) => {
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await openChat(page)
  const panel = await openDevtools(page)
  const frame = panel.getByTestId('devtools-frame')
  await dockDevtools(page, 'bottom')
  const resized = await resizeByKeyboard(page)
  await panel.getByTestId('tab-timeline').click()
  await panel.getByTestId('filter-tool_call').click()
  await expect(panel.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'false')
  // The chat's bottom edge follows the panel's.
  const chatBottom = async () => {
    const box = await page.getByTestId('chat-view').boundingBox()
    return box === null ? Number.NaN : box.y + box.height
  }
  const frameTop = async () => (await frame.boundingBox())?.y ?? Number.NaN
  expect(await chatBottom()).toBeLessThanOrEqual((await frameTop()) + 1)

  await page.reload()
  await expect(frame).toHaveAttribute('data-dock', 'bottom', { timeout: 30_000 })
  await expect(devtoolsToggle(page)).toHaveAttribute('aria-expanded', 'true')
  await expect(panel.getByTestId('devtools-resize')).toHaveAttribute('aria-valuenow', String(resized))
  await expect(panel.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true')
  await expect(panel.getByTestId('filter-tool_call')).toHaveAttribute('aria-pressed', 'false')
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 })
  expect(await chatBottom()).toBeLessThanOrEqual((await frameTop()) + 1)

  await devtoolsToggle(page).click()
  await expect(frame).toHaveCount(0)
  await page.reload()
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 })
  await expect(devtoolsToggle(page)).toHaveAttribute('aria-expanded', 'false')
  await expect(frame).toHaveCount(0)
  // With the panel closed the chat has the whole window again.
  const box = await page.getByTestId('chat-view').boundingBox()
  const composerBox = await composer(page).boundingBox()
  expect((composerBox?.y ?? 0) + (composerBox?.height ?? 0)).toBeGreaterThan(900 - 100)
  expect(box).not.toBeNull()
  expect(errors).toEqual([])
})

test('keyboard: skip links, one tab stop per chat in the sidebar, focus back on the toggle when the panel closes', async ({ page }) => {
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await openChat(page)
  const sidebar = page.getByRole('complementary', { name: 'Chats and memory' })
  for (let count = 2; count <= 3; count += 1) {
    await sidebar.getByRole('button', { name: 'New chat', exact: true }).click()
    await expect(page.getByTestId('thread-row')).toHaveCount(count)
  }
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 })

  // On a fresh load, the first tab stops are the skip links, shown when focused.
  await page.reload()
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 })
  await page.keyboard.press('Tab')
  const toConversation = page.getByRole('link', { name: 'Skip to the conversation' })
  await expect(toConversation).toBeFocused()
  await expect(toConversation).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('chat-view')).toBeFocused()
  // The second stop is the other skip link.
  await toConversation.focus()
  await page.keyboard.press('Tab')
  const toComposer = page.getByRole('link', { name: 'Skip to the composer' })
  await expect(toComposer).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(composer(page)).toBeFocused()
  // The URL keeps its thread (the links move focus, they do not navigate).
  await expect(page).toHaveURL(/#thread=/)

  // Tabbing through the chat list stops once per chat, on its open button (rename, export and
  // delete are reached with the arrow keys).
  await sidebar.getByRole('button', { name: 'Import…' }).focus()
  const stopsInList: string[] = []
  for (let step = 0; step < 8; step += 1) {
    await page.keyboard.press('Tab')
    const where = await page.evaluate(() => {
      const active = document.activeElement
      return active === null || active.closest('[data-testid="thread-list"]') === null
        ? ''
        : (active.getAttribute('data-row-stop') ?? active.getAttribute('aria-label') ?? '?')
    })
    if (where !== '') stopsInList.push(where)
  }
  expect(stopsInList).toEqual(['open', 'open', 'open'])
  // Arrow keys: down to the next chat, right into its actions, left back.
  const rows = page.getByTestId('thread-row')
  await rows.nth(0).locator('[data-row-stop="open"]').focus()
  await page.keyboard.press('ArrowDown')
  await expect(rows.nth(1).locator('[data-row-stop="open"]')).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(rows.nth(1).getByRole('button', { name: /^Rename / })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(rows.nth(1).getByRole('button', { name: /^Export / })).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(rows.nth(1).locator('[data-row-stop="open"]')).toBeFocused()

  // The panel closes back to the header's Devtools button: with its ✕, the button, or the shortcut.
  const toggle = devtoolsToggle(page)
  if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click()
  await toggle.focus()
  await page.keyboard.press('Enter')
  const panel = devtools(page)
  await expect(panel.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  await panel.getByTestId('tab-calls').click()
  await panel.getByTestId('devtools-close').click()
  await expect(panel.getByTestId('devtools-frame')).toHaveCount(0)
  await expect(toggle).toBeFocused()
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  // Opened from the composer with the shortcut, closed from inside the panel: focus goes back to the composer.
  await composer(page).focus()
  await page.keyboard.press('Alt+Shift+KeyD')
  await expect(panel.getByTestId('devtools-close')).toBeVisible({ timeout: 30_000 })
  await panel.getByTestId('devtools-close').click()
  await expect(composer(page)).toBeFocused()
  // Opened on load (remembered), closed from inside the panel: nothing had focus, so the toggle gets it.
  await toggle.click()
  await expect(panel.getByTestId('devtools-close')).toBeVisible({ timeout: 30_000 })
  await page.reload()
  await expect(panel.getByTestId('devtools-close')).toBeVisible({ timeout: 30_000 })
  await panel.getByTestId('devtools-close').click()
  await expect(toggle).toBeFocused()
  expect(errors).toEqual([])
})
