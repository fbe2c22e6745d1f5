import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
// Repeated on purpose: the chat-page helpers this spec uses, as e2e/chat-dock.spec.ts imports them (an import list).
import {
  artifact,
  assistantMessages,
  collectErrors,
  composer,
  devtools,
  devtoolsToggle,
  dockDevtools,
  isUncovered,
  meter,
  openChat,
  openDevtools,
  send,
} from './chat-page'

test.use({ viewport: { width: 390, height: 844 } })

/** Critical and serious axe violations on the whole page, the devtools' shadow root included. */
async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${label}: ${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

/** The distinct tops of the tabs (one value: the tabs are on one row), and whether the tab strip scrolls sideways to show them all. */
async function tabRows(panel: Locator): Promise<{ readonly tops: number[]; readonly scrolls: boolean }> {
  return panel.locator('[role="tablist"]').evaluate((list) => ({
    tops: [...new Set([...list.querySelectorAll('[role="tab"]')].map((tab) => Math.round(tab.getBoundingClientRect().top)))],
    scrolls: list.scrollWidth > list.clientWidth,
  }))
}

// The devtools at a phone's width (360 and 390 px) and wider (1024, 1440): the header is one row, the
// tabs one row (scrolled sideways when they do not fit), the bottom dock leaves the chat its input,
// the floating panel stays inside the window, the dock buttons have names and tooltips, a right dock
// on a phone says why it shows at the bottom, and axe finds nothing critical or serious.
for (const size of [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const) {
  test(`${size.width} px: the panel's header and tabs are one row each, the chat's input stays uncovered, the dock buttons say what they do`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000)
    const errors = collectErrors(page)
    await page.setViewportSize(size)
    await openChat(page)
    await send(page, 'What is 17% of 2,340?')
    const panel = await openDevtools(page)
    await dockDevtools(page, 'bottom')
    const phone = size.width < 640

    const header = panel.locator('.tl-header').first()
    const headerBox = await header.boundingBox()
    expect(headerBox).not.toBeNull()
    // One row: the controls (28 px tall) and a few pixels of padding.
    if (phone) expect(headerBox?.height ?? 0).toBeLessThanOrEqual(40)
    // Nothing in the header row runs past the panel's edge.
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true)
    const rows = await tabRows(panel)
    expect(rows.tops).toHaveLength(1)
    if (phone) {
      // The last tab is reached by scrolling the strip, and selecting it brings it into view.
      expect(rows.scrolls).toBe(true)
      await panel.getByTestId('tab-calls').focus()
      await page.keyboard.press('End')
      await expect(panel.getByTestId('tab-storage')).toHaveAttribute('aria-selected', 'true')
      await expect(panel.getByTestId('tab-storage')).toBeInViewport({ ratio: 1 })
      await panel.getByTestId('tab-projection').click()
    }

    // The bottom dock takes a share of the window (half of it at most on a phone) and the chat keeps the rest.
    const frame = await panel.getByTestId('devtools-frame').boundingBox()
    expect(frame).not.toBeNull()
    if (phone) expect(frame?.height ?? 0).toBeLessThanOrEqual(size.height / 2 + 1)
    expect(await isUncovered(composer(page))).toBe(true)
    expect(await isUncovered(meter(page))).toBe(true)
    await artifact(page, testInfo, `devtools-bottom-${size.width}`)
    const found = await seriousViolations(page, `${size.width} px, bottom`)

    // Every dock button has a name and a tooltip.
    for (const id of ['dock-bottom', 'dock-right', 'dock-floating', 'devtools-close']) {
      const button = panel.getByTestId(id)
      expect(await button.getAttribute('aria-label'), id).toBeTruthy()
      expect(await button.getAttribute('title'), id).toBeTruthy()
    }
    await dockDevtools(page, 'right')
    if (phone) {
      // A phone has no room for a column: the panel stays at the bottom, and says why.
      await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-edge', 'bottom')
      await expect(panel.getByTestId('dock-note')).toContainText('at least 640 px wide')
      await expect(panel.getByTestId('dock-note')).toBeVisible()
      await expect(panel.getByTestId('dock-right')).toHaveAttribute('title', /needs a window at least 640 px wide/)
      await expect(panel.getByTestId('dock-note')).toBeEmpty({ timeout: 10_000 })
    } else {
      await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-edge', 'right')
      await expect(panel.getByTestId('dock-note')).toBeEmpty()
    }
    expect(await isUncovered(composer(page))).toBe(true)

    // Floating, the panel stays inside the window.
    await dockDevtools(page, 'floating')
    const box = await panel.getByTestId('devtools-frame').boundingBox()
    expect(box).not.toBeNull()
    if (box !== null) {
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.y).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(size.width)
      expect(box.y + box.height).toBeLessThanOrEqual(size.height)
    }
    found.push(...(await seriousViolations(page, `${size.width} px, floating`)))
    await dockDevtools(page, 'bottom')
    expect(found).toEqual([])
    expect(errors).toEqual([])
  })
}

test('a narrow window: the chat list is a drawer, the devtools docked at the bottom, the meter and composer always in reach', async ({
  page,
}, testInfo) => {
  const errors = collectErrors(page)
  await openChat(page)
  const sidebar = page.getByRole('complementary', { name: 'Chats and memory' })
  await expect(sidebar).toBeHidden()
  await expect(meter(page)).toBeVisible()
  // A phone starts with the devtools closed (the first visit on a wide window opens them).
  await expect(devtools(page).getByTestId('devtools-frame')).toHaveCount(0)
  await expect(devtoolsToggle(page)).toHaveAttribute('aria-expanded', 'false')

  await send(page, 'What is 17% of 2,340?')
  await expect(assistantMessages(page).last()).toContainText('= 397.8.')
  await expect(meter(page)).toBeInViewport()
  await artifact(page, testInfo, 'chat-narrow')

  const chats = page.getByRole('button', { name: 'Chats', exact: true })
  await chats.click()
  await expect(chats).toHaveAttribute('aria-expanded', 'true')
  await expect(sidebar).toBeVisible()
  await sidebar.getByRole('button', { name: 'New chat' }).click()
  await expect(sidebar).toBeHidden()
  await expect(page.getByTestId('chat-title')).toHaveText('New chat')
  await expect(page.getByTestId('thread-row')).toHaveCount(2)

  const panel = await openDevtools(page)
  await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-dock', 'bottom')
  // The chat gives the docked panel its room: the meter and the composer stay in reach above it.
  expect(await isUncovered(meter(page))).toBe(true)
  expect(await isUncovered(composer(page))).toBe(true)
  await panel.getByTestId('devtools-close').click()
  await expect(panel.getByTestId('devtools-frame')).toHaveCount(0)
  await expect(devtoolsToggle(page)).toBeFocused()
  expect(errors).toEqual([])
})
