// Node-only (Vite's dev server, Playwright): imported by the benches, never by a browser page.
import type { Browser, Page } from '@playwright/test'
import { type HarnessPage, serveHarness } from '../harness/serve-harness'

/**
 * Serves `harness`'s page, opens it in the browser `launch` starts, waits until the page has set
 * `window.<harness>Harness`, and hands the page to `bench`; closes the browser and the server after.
 */
export async function benchInHarness<T>(harness: HarnessPage, launch: () => Promise<Browser>, bench: (page: Page) => Promise<T>): Promise<T> {
  const server = await serveHarness(harness)
  const browser = await launch()
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => console.error('[threadlens] bench page error:', error.message))
    await page.goto(server.url)
    await page.waitForFunction((name) => (window as unknown as Record<string, unknown>)[name] !== undefined, `${harness}Harness`)
    return await bench(page)
  } finally {
    await browser.close()
    await server.close()
  }
}
