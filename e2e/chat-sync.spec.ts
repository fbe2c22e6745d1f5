import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { spawnSyncServer, type SpawnedSyncServer } from '../packages/sync/server/sync-server'
import { devtools, openChat, openDevtools, send } from './chat-page'

// The demo's sync switch: off at first (no sync code loaded), pointed at a local sync server from
// the header, turned on, it says `synced` once the open chat is on the server; the choice survives
// a reload; the devtools' Storage tab shows the same status; with the Storage tab open at a phone,
// a tablet and a desktop width, axe finds nothing critical or serious, and nothing at all in the
// sync switch and the Storage tab's sync row.

let server: SpawnedSyncServer
let dataDir = ''

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'threadlens-chat-sync-'))
  server = await spawnSyncServer({ port: 0, dataDir })
})

test.afterAll(async () => {
  await server?.stop()
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true })
})

const status = (page: Page) => page.getByTestId('sync-status')

/** The demo's index stream on the server, read from Node: what sync wrote there. */
async function indexMessages(): Promise<{ type: string; record?: { id: string } }[]> {
  const response = await fetch(`${server.baseUrl}/v1/stream/threadlens-demo/index?offset=-1`)
  return response.ok ? ((await response.json()) as { type: string; record?: { id: string } }[]) : []
}

/**
 * Page errors and console errors, but for the browser's own line on a 404 from the sync server: a
 * stream nobody has written yet (this device's first read of the index) answers 404, which sync
 * takes as "empty"; Chromium logs each such response as an error.
 */
function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const fromSyncServer = message.location().url.startsWith(`${server.baseUrl}/`)
    if (fromSyncServer && message.text().includes('status of 404')) return
    errors.push(`${message.text()} (${message.location().url})`)
  })
  return errors
}

/** Axe's critical and serious violations on the whole page (the devtools' shadow root included), and any at all in what sync adds. */
async function violations(page: Page, label: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  const ours = (target: string) => /chat-sync|sync-|storage-sync/.test(target)
  return result.violations.flatMap((violation) => {
    const nodes = violation.nodes.map((node) => node.target.join(' '))
    const serious = violation.impact === 'critical' || violation.impact === 'serious'
    const shown = serious ? nodes : nodes.filter(ours)
    return shown.length === 0 ? [] : [`${label}: ${violation.impact} ${violation.id}: ${shown.join(', ')}`]
  })
}

test('the header turns sync on against a local server and says synced; the Storage tab says the same', async ({ page }) => {
  test.setTimeout(120_000)
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  // The sync code (start-demo-sync.ts with @threadlens/sync, one lazy chunk) loads only once sync is on.
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  const syncChunkLoaded = () => scripts.some((path) => path.startsWith('/assets/start-demo-sync-'))
  const threadId = await openChat(page)
  await expect(status(page)).toHaveText('off')
  await expect(page.getByTestId('sync-toggle')).not.toBeChecked()

  await page.getByTestId('sync-server-edit').click()
  await page.getByTestId('sync-server').fill(server.baseUrl)
  await page.getByRole('button', { name: 'Use' }).click()
  expect(syncChunkLoaded()).toBe(false)
  await page.getByTestId('sync-toggle').check()
  await expect(status(page)).toHaveText('synced', { timeout: 30_000 })
  expect(syncChunkLoaded()).toBe(true)
  // The open chat really is on the server.
  await expect
    .poll(async () => (await indexMessages()).some((message) => message.type === 'record' && message.record?.id === threadId), { timeout: 10_000 })
    .toBe(true)

  await send(page, 'What is 17% of 2,340?')
  await expect(status(page)).toHaveText('synced', { timeout: 30_000 })
  const remembered = await page.evaluate(() => JSON.parse(localStorage.getItem('threadlens-demo-chat-sync') ?? 'null') as unknown)
  expect(remembered).toEqual({ enabled: true, server: server.baseUrl })

  // Remembered across a reload: on again, synced again, and the panel's Storage tab says so.
  await page.reload()
  await expect(status(page)).toHaveText('synced', { timeout: 30_000 })
  const panel = await openDevtools(page)
  await panel.getByTestId('tab-storage').click()
  await expect(devtools(page).getByTestId('storage-sync')).toHaveText(/^synced at \d{4}-/, { timeout: 10_000 })

  const found: string[] = []
  for (const size of [
    { width: 390, height: 844 },
    { width: 1024, height: 768 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size)
    await expect(devtools(page).getByTestId('storage-sync')).toBeVisible()
    found.push(...(await violations(page, `${size.width} px, Storage tab, sync on`)))
  }
  expect(found).toEqual([])

  // Off again: the header says so.
  await page.getByTestId('sync-toggle').uncheck()
  await expect(status(page)).toHaveText('off')
  expect(errors).toEqual([])
})
