// What the consumer test's page checks share: an assertion that names what failed, and a watch on
// a page's uncaught errors, console errors and failed requests.
import type { Page } from '@playwright/test'

export const PAGE_TIMEOUT_MS = 30_000

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

/** Collects uncaught errors and console errors: a hydration mismatch or a failed import shows there. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    // A failed request is reported below with its address, where the browser's message has none.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console.error: ${message.text()}`)
  })
  page.on('response', (response) => {
    // Neither app has a favicon; the browser asks for one anyway.
    if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico') errors.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  return errors
}
