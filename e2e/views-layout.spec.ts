import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test'
import { artifact, collectErrors, composer, copyToDocs, devtools, dockDevtools, isUncovered, openChat, screenshot, send } from './chat-page'
import { cutText, devtoolsScope, overlaps, sidewaysScrolling, squeezedText } from './layout-checks'

// Every view of the demo at every width people use it: the chat after a long session with an image
// sent, the AI SDK route (`?view=ai-sdk`) and the lab (`?view=lab`), at 360, 390, 768, 1024 and
// 1440 px, each with the devtools closed and open (docked at the bottom below 900 px, on the right
// from 900 px, as the chat's first visit does). In each: axe finds nothing critical or serious on the
// whole page (the panel's shadow root included), no two controls or text blocks overlap (in the page
// or in the panel), no text is cut off without a title to read it by nor squeezed to a word per
// line, neither the page nor a region of it scrolls sideways, the message input is never under the
// panel, and the lab's columns keep their room beside a docked panel. Each view builds its state once and
// resizes through the widths. Under `npm run screenshots` (THREADLENS_DOCS_SCREENSHOTS=1) the README's
// screenshots of the chat (docked at 390, 1024 and 1440 px; after the long session) are copied to
// docs/screenshots from the states checked here.

const sizes = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const
type Size = (typeof sizes)[number]

/** One view at one width, panel open or closed: what axe found and what the layout checks found. */
interface Row {
  readonly view: string
  readonly width: number
  readonly panel: 'open' | 'closed'
  readonly critical: number
  readonly serious: number
  readonly issues: readonly string[]
  /** How long the checks took. */
  readonly seconds?: number
}

/** How the view's devtools open, close and take their place. */
interface Panel {
  open(page: Page): Promise<void>
  close(page: Page): Promise<void>
}

/** Devtools opened and closed by their own toggle (the AI SDK route and the lab). */
const ownToggle: Panel = {
  async open(page) {
    const panel = devtools(page)
    if ((await panel.getByTestId('devtools-frame').count()) === 0) await panel.getByTestId('devtools-toggle').click()
    await expect(panel.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  },
  async close(page) {
    const panel = devtools(page)
    if ((await panel.getByTestId('devtools-frame').count()) > 0) await panel.getByTestId('devtools-close').click()
    await expect(panel.getByTestId('devtools-frame')).toHaveCount(0)
  },
}

/** The chat's devtools: toggled from its header. */
const chatToggle: Panel = {
  async open(page) {
    const toggle = page.getByTestId('chat-devtools-toggle')
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    await expect(devtools(page).getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  },
  async close(page) {
    const toggle = page.getByTestId('chat-devtools-toggle')
    if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click()
    await expect(devtools(page).getByTestId('devtools-frame')).toHaveCount(0)
  },
}

/** Waits two frames: a resize or a dock is laid out and painted. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  await page.waitForTimeout(100)
}

/** Everything the checks find on the page as it is now. */
async function check(page: Page, size: Size, view: string, panel: Row['panel'], input: Locator | undefined): Promise<Row> {
  const axe = await new AxeBuilder({ page }).analyze()
  const serious = axe.violations.filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
  const issues = serious.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  const scopes = panel === 'open' ? ['#root', devtoolsScope] : ['#root']
  for (const scope of scopes) {
    for (const item of await overlaps(page, scope)) issues.push(`${item.first} overlaps ${item.second} by ${item.width}×${item.height} px`)
    for (const item of await cutText(page, scope)) issues.push(`cut off with no title: ${item}`)
    for (const item of await squeezedText(page, scope)) issues.push(`one word per line: ${item}`)
  }
  for (const item of await sidewaysScrolling(page, '#root')) issues.push(`scrolls sideways: ${item}`)
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  if (pageWidth > size.width) issues.push(`the page is ${pageWidth} px wide in ${size.width}`)
  if (input !== undefined) {
    // The input at the page's end (where a docked panel would cover it if the page did not make room).
    await page.evaluate(() => globalThis.scrollTo(0, document.documentElement.scrollHeight))
    if (!(await isUncovered(input))) issues.push('the message input is under the devtools')
  }
  const count = (impact: string) =>
    serious.filter((violation) => violation.impact === impact).reduce((sum, violation) => sum + violation.nodes.length, 0)
  return { view, width: size.width, panel, critical: count('critical'), serious: count('serious'), issues }
}

/**
 * Checks the view at every width, the devtools closed then open; `more` may check more of each state
 * (what it returns is reported with the rest) and save its screenshot for the docs.
 */
async function checkWidths(
  page: Page,
  testInfo: TestInfo,
  view: string,
  panel: Panel,
  input: Locator | undefined,
  more: (size: Size, state: Row['panel'], path: string) => Promise<string[] | void> = async () => {},
): Promise<Row[]> {
  const rows: Row[] = []
  for (const size of sizes) {
    await page.setViewportSize(size)
    for (const state of ['closed', 'open'] as const) {
      if (state === 'open') {
        await panel.open(page)
        await dockDevtools(page, size.width < 900 ? 'bottom' : 'right')
      } else await panel.close(page)
      await settle(page)
      const started = Date.now()
      const row = await check(page, size, view, state, input)
      const found = await more(size, state, await artifact(page, testInfo, `${view}-${size.width}-${state}`))
      rows.push({ ...row, issues: [...row.issues, ...(found ?? [])], seconds: (Date.now() - started) / 1000 })
    }
  }
  // Left as found: the next view's first visit decides for itself.
  await panel.close(page)
  for (const row of rows)
    console.log(
      `[layout] ${row.view} ${row.width} px, devtools ${row.panel}: axe ${row.critical} critical, ${row.serious} serious; ${row.issues.length} layout issues (${(row.seconds ?? 0).toFixed(1)} s)`,
    )
  return rows
}

const failures = (rows: readonly Row[]) =>
  rows.flatMap((row) => row.issues.map((issue) => `${row.view} at ${row.width} px, devtools ${row.panel}: ${issue}`))

/** A 320 × 200 PNG drawn in the page (a harbour at noon), pasted into the message box as a screenshot from the clipboard. */
async function pasteImage(page: Page): Promise<void> {
  await composer(page).focus()
  // Repeated on purpose: a canvas drawn into a PNG, like packages/ai-sdk/src/chat-attachments.browser.test.ts (another picture, another test).
  await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 320
    canvas.height = 200
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    // Flat colours (a sky, the sea, a sun): a picture that stays small in the docs' PNGs.
    context.fillStyle = '#bfdbfe'
    context.fillRect(0, 0, 320, 120)
    context.fillStyle = '#1d4ed8'
    context.fillRect(0, 120, 320, 80)
    context.fillStyle = '#f59e0b'
    context.beginPath()
    context.arc(240, 60, 28, 0, 2 * Math.PI)
    context.fill()
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
    if (blob === null) throw new Error('the canvas gave no PNG')
    const transfer = new DataTransfer()
    transfer.items.add(new File([blob], 'harbour.png', { type: 'image/png' }))
    document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
  })
  await expect(page.getByTestId('draft-attachment')).toHaveCount(1)
}

test('the chat after a long session with an image, at every width, devtools closed and open', async ({ page }, testInfo) => {
  test.setTimeout(240_000)
  const errors = collectErrors(page)
  await page.setViewportSize(sizes[4])
  await openChat(page)
  await send(page, 'what is 12 * 7')
  await page.getByRole('button', { name: 'Long session' }).click()
  await expect(page.getByTestId('chat-notice')).toContainText(/Appended 240 turns/)
  await pasteImage(page)
  // The send after a long session summarizes what left the window: the summary card shows too.
  await send(page, 'What is in this picture?')
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]').last().getByTestId('message-thumbnail')).toBeVisible()
  await expect(page.getByTestId('summary-card')).toHaveCount(1)
  const rows = await checkWidths(page, testInfo, 'chat', chatToggle, composer(page), async (size, state, path) => {
    // The README shows the chat beside its docked panel at a phone's, a tablet's and a desktop's width.
    if (state === 'open' && [390, 1024, 1440].includes(size.width)) await copyToDocs(path, `chat-docked-${size.width}`)
  })
  // The README's long-session shot: the summary that replaced what left the window, the greyed entries above it.
  await page.setViewportSize({ width: 1280, height: 720 })
  await chatToggle.open(page)
  await dockDevtools(page, 'right')
  await devtools(page).getByTestId('tab-timeline').click()
  await page.getByTestId('summary-card').evaluate((element) => element.scrollIntoView({ block: 'center' }))
  await settle(page)
  await screenshot(page, testInfo, 'chat-long-session')
  expect(failures(rows)).toEqual([])
  expect(errors).toEqual([])
})

test('the AI SDK route after a tool call, at every width, devtools closed and open', async ({ page }, testInfo) => {
  test.setTimeout(120_000)
  const errors = collectErrors(page)
  await page.goto('/?view=ai-sdk')
  const input = page.getByLabel('Message')
  for (const text of ['hello there', 'weather in Oslo']) {
    await expect(input).toBeEnabled({ timeout: 20_000 })
    await input.fill(text)
    await input.press('Enter')
    await expect(page.locator('article[data-role="user"]').last()).toContainText(text)
  }
  await expect(page.locator('article[data-role="assistant"]').last()).toContainText('The weather tool says', { timeout: 20_000 })
  const rows = await checkWidths(page, testInfo, 'ai-sdk', ownToggle, input)
  expect(failures(rows)).toEqual([])
  expect(errors).toEqual([])
})

/** Where the lab's columns end against a docked panel: above a bottom dock, left of a right one, with room for rows. */
async function labRoom(page: Page): Promise<string[]> {
  const frame = await devtools(page).getByTestId('devtools-frame').boundingBox()
  const edge = await devtools(page).getByTestId('devtools-frame').getAttribute('data-edge')
  // Scrolled to its end, the page shows its last column whole beside the panel.
  await page.evaluate(() => globalThis.scrollTo(0, document.documentElement.scrollHeight))
  const last = await page.locator('.lab-page .panel').last().boundingBox()
  const first = await page.locator('.lab-page .panel').first().boundingBox()
  if (frame === null || last === null || first === null) return ['the lab or the panel has no box']
  const found: string[] = []
  if (edge === 'bottom' && last.y + last.height > frame.y + 1)
    found.push(`the last column ends at ${last.y + last.height}, under the panel at ${frame.y}`)
  if (edge === 'right' && last.x + last.width > frame.x + 1)
    found.push(`the last column ends at ${last.x + last.width}, under the panel at ${frame.x}`)
  if (first.height <= 160) found.push(`the projected messages have ${first.height} px beside the panel`)
  return found
}

test('the lab at every width, devtools closed and open', async ({ page }, testInfo) => {
  test.setTimeout(120_000)
  const errors = collectErrors(page)
  await page.goto('/?view=lab')
  await expect(page.getByRole('heading', { name: 'threadlens', level: 1 })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('projection-loading')).toHaveCount(0, { timeout: 30_000 })
  await expect(page.getByRole('list', { name: 'Thread timeline' })).toBeVisible()
  // Styled: the lab's columns are boxes with a border, not bare lists (its CSS chunk loaded).
  await expect(page.locator('.panel').first()).toHaveCSS('border-top-style', 'solid')
  const rows = await checkWidths(page, testInfo, 'lab', ownToggle, undefined, async (_size, state) => (state === 'open' ? labRoom(page) : []))
  // A short window docked at the bottom: the panel takes its room and the lab's columns keep theirs.
  await page.setViewportSize({ width: 1024, height: 768 })
  await ownToggle.open(page)
  await dockDevtools(page, 'bottom')
  expect(await labRoom(page)).toEqual([])
  expect(failures(rows)).toEqual([])
  expect(errors).toEqual([])
})
