import { gzipSync } from 'node:zlib'
import { expect, test, type Page, type Response } from '@playwright/test'
import { collectErrors, composer, devtools, fastChat, meter } from './chat-page'

// The exact encodings and the sending part: what a visit that only reads must not download.
const tokenizerChunk = /\/assets\/(o200k_base|cl100k_base|GptEncoding)-[\w-]+\.js$/
const sendingChunk = /\/assets\/chat-agent-[\w-]+\.js$/

/** Every response of the page, with its body's gzip size (what a compressing server sends). */
function recordResponses(page: Page): { url: string; gzipBytes: number }[] {
  const seen: { url: string; gzipBytes: number }[] = []
  page.on('response', (response: Response) => {
    void response.body().then(
      (body) => seen.push({ url: response.url(), gzipBytes: gzipSync(body, { level: 9 }).length }),
      () => undefined,
    )
  })
  return seen
}

for (const width of [390, 1440]) {
  test(`${width} px: the chat shows estimated counts without the tokenizer, and loads it at the first interaction`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 })
    const errors = collectErrors(page)
    const responses = recordResponses(page)
    await page.goto(fastChat)
    await expect(meter(page)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 })
    await expect(meter(page)).toHaveAttribute('data-exact', 'false')
    await expect(meter(page)).toContainText('(estimated)')
    // Whatever the page would fetch on its own (idle callbacks, the panel at 1440 px) has had time to.
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1_500)
    const before = responses.map((response) => response.url)
    expect(before.filter((url) => tokenizerChunk.test(url)), 'tokenizer fetched before any interaction').toEqual([])
    expect(before.filter((url) => sendingChunk.test(url)), 'sending part fetched before any interaction').toEqual([])
    const kilobytes = responses.reduce((sum, response) => sum + response.gzipBytes, 0) / 1024
    const figure = `${width} px: ${responses.length} responses, ${kilobytes.toFixed(1)} KB gzip before any interaction`
    testInfo.annotations.push({ type: 'first load', description: figure })
    console.log(`[first load] ${figure}`)

    await composer(page).click()
    await expect(meter(page)).toHaveAttribute('data-exact', 'true', { timeout: 30_000 })
    await expect(meter(page)).not.toContainText('(estimated)')
    expect(responses.some((response) => tokenizerChunk.test(response.url))).toBe(true)
    if (width === 1440) {
      // The panel docked beside the chat names the chat's policy as the chat's menu does.
      const chosen = await page.getByTestId('chat-policy-select').locator('option:checked').innerText()
      await expect(devtools(page).getByTestId('policy-select').locator('option[value="app"]')).toHaveText(`app: ${chosen}`)
    }
    expect(errors).toEqual([])
  })
}
