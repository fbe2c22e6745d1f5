import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test'

// Helpers of the chat specs (e2e/chat-*.spec.ts): the demo chat at `/`, driven as a user would.

/** `?delay=0`: the offline model streams with no pause between chunks (it still streams, chunk by chunk). */
export const fastChat = '/?delay=0'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Page errors and console errors: every spec expects none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  return errors
}

export function composer(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message' })
}

/** The devtools the chat installs (`<ThreadlensDevtools>`): docked bottom or right, or floating; locators pierce its shadow root. */
export function devtools(page: Page): Locator {
  return page.getByTestId('threadlens-devtools')
}

/** The chat header's Devtools button (the demo hides the devtools' own floating toggle). */
export function devtoolsToggle(page: Page): Locator {
  return page.getByTestId('chat-devtools-toggle')
}

/** Opens the devtools from the header if they are closed, and waits until the panel shows the projection. */
export async function openDevtools(page: Page): Promise<Locator> {
  const toggle = devtoolsToggle(page)
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const panel = devtools(page)
  await expect(panel.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  return panel
}

/** Docks the open panel (bottom, right or floating) and waits until the frame says so. */
export async function dockDevtools(page: Page, position: 'bottom' | 'right' | 'floating'): Promise<void> {
  const panel = devtools(page)
  await panel.getByTestId(`dock-${position}`).click()
  await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-dock', position)
}

/**
 * The resize handle is a focusable separator: two ArrowUp presses grow the panel by two 20 px
 * steps, and aria-valuenow follows. Returns the size it shows then.
 */
export async function resizeByKeyboard(page: Page): Promise<number> {
  const separator = devtools(page).getByTestId('devtools-resize')
  const before = Number(await separator.getAttribute('aria-valuenow'))
  await separator.focus()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect(separator).toHaveAttribute('aria-valuenow', String(before + 40))
  return before + 40
}

/** The timeline's rows in `scope` (the page, or the devtools' shadow host): each row's seq and its state (sent, left out, …). */
export async function rowStates(scope: Page | Locator): Promise<Map<string, string>> {
  const rows = await scope
    .getByTestId('timeline-row')
    .evaluateAll((elements) => elements.map((element) => [element.getAttribute('data-seq') ?? '', element.getAttribute('data-state') ?? ''] as const))
  return new Map(rows)
}

/**
 * Whether the user can reach a control: it is in the viewport and the element at its centre is the
 * control itself (or inside it), not the devtools drawn over it.
 */
export async function isUncovered(locator: Locator): Promise<boolean> {
  await expect(locator).toBeInViewport()
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    return hit !== null && (hit === element || element.contains(hit))
  })
}

export function meter(page: Page): Locator {
  return page.getByTestId('chat-token-meter')
}

export function assistantMessages(page: Page): Locator {
  return page.locator('[data-testid="chat-message"][data-role="assistant"]')
}

/** Opens the chat and waits until it can send: a thread is open and the token counter is loaded. */
export async function openChat(page: Page, path = fastChat): Promise<string> {
  await page.goto(path)
  await expect(composer(page)).toBeEnabled({ timeout: 30_000 })
  // The exact o200k counter (a lazy chunk of about 1 MB gzip) loads at the first interaction; until
  // then the meter shows estimates.
  await composer(page).click()
  await expect(meter(page)).toHaveAttribute('data-exact', 'true', { timeout: 30_000 })
  await expect(page).toHaveURL(/#thread=/)
  return threadIdOf(page)
}

export function threadIdOf(page: Page): string {
  const match = /#thread=([A-Za-z0-9_.:-]+)$/.exec(page.url())
  if (match === null) throw new Error(`no thread in ${page.url()}`)
  return match[1] as string
}

/** Sends a message and waits until the request is over: the message is in the thread and the chat idle again (the reply may still be painting). */
export async function send(page: Page, text: string): Promise<void> {
  const before = Number(await page.getByTestId('entry-count').innerText())
  await composer(page).fill(text)
  await composer(page).press('Enter')
  await expect.poll(async () => Number(await page.getByTestId('entry-count').innerText()), { timeout: 30_000 }).toBeGreaterThan(before)
  await expect(page.getByTestId('chat-view')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 })
}

/** The meter's numbers, checked against what it shows. */
export async function meterNumbers(page: Page): Promise<{ total: number; budget: number }> {
  const element = meter(page)
  const total = Number(await element.getAttribute('data-total'))
  const budget = Number(await element.getAttribute('data-budget'))
  expect(Number((await element.getByTestId('meter-total').innerText()).replace(/[≈,]/g, ''))).toBe(total)
  expect(Number((await element.getByTestId('meter-budget').innerText()).replace(/[≈,]/g, ''))).toBe(budget)
  return { total, budget }
}

export interface StoredEntry {
  readonly seq: number
  readonly kind: string
  readonly payload: unknown
  readonly refs: unknown
}

/** The thread as stored in IndexedDB, read through the page's own store (`window.__threadlensChat`). */
export async function storedEntries(page: Page, threadId: string): Promise<StoredEntry[]> {
  return page.evaluate(async (id) => {
    const handle = (
      window as unknown as { __threadlensChat: { stores: { threads: { load(id: string): Promise<{ entries: readonly StoredEntry[] }> } } } }
    ).__threadlensChat
    const thread = await handle.stores.threads.load(id)
    return thread.entries.map((entry) => ({ seq: entry.seq, kind: entry.kind, payload: entry.payload, refs: entry.refs }))
  }, threadId)
}

/**
 * Saves a screenshot as a test artifact (test-results/). Under `npm run screenshots`
 * (THREADLENS_DOCS_SCREENSHOTS=1) it is also copied to docs/screenshots, which the README and docs
 * show: a plain test run never rewrites files in the repository.
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await copyToDocs(await artifact(page, testInfo, name), name)
}

/** Saves a screenshot of the page (or of `element` alone) as a test artifact only; returns its path. */
export async function artifact(page: Page, testInfo: TestInfo, name: string, element?: Locator): Promise<string> {
  const path = testInfo.outputPath(`${name}.png`)
  await (element ?? page).screenshot({ path })
  await testInfo.attach(name, { path, contentType: 'image/png' })
  return path
}

/** Copies a saved screenshot to docs/screenshots/<name>.png, only under `npm run screenshots`. */
export async function copyToDocs(path: string, name: string): Promise<void> {
  if (process.env['THREADLENS_DOCS_SCREENSHOTS'] !== '1') return
  await mkdir(join(repo, 'docs/screenshots'), { recursive: true })
  await copyFile(path, join(repo, 'docs/screenshots', `${name}.png`))
}
