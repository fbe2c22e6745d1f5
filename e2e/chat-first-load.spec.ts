import { gzipSync } from 'node:zlib'
import { expect, test, type Page, type Response } from '@playwright/test'
import { collectErrors, composer, devtools, fastChat, meter, openChat } from './chat-page'

// The exact encodings and the sending part: what a visit that only reads must not download.
const tokenizerChunk = /\/assets\/(o200k_base|cl100k_base|GptEncoding)-[\w-]+\.js$/
const sendingChunk = /\/assets\/chat-agent-[\w-]+\.js$/
// The devtools tabs other than the one the panel opens on (the Projection, in the panel's chunk).
const otherTabChunk = /\/assets\/(tokens|timeline|views|policy-lab|calls|memory|storage)-tab-[\w-]+\.js$/
// The goal of the demo's first load (issue 13): under 200 KB gzip before the first message.
const goalBytes = 200 * 1024

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
  test(`${width} px: under 200 KB gzip before any interaction; estimated counts until the tokenizer loads at the first one`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 })
    const errors = collectErrors(page)
    const responses = recordResponses(page)
    await page.goto(fastChat)
    await expect(meter(page)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 })
    await expect(meter(page)).toHaveAttribute('data-exact', 'false')
    await expect(meter(page)).toContainText('(estimated)')
    const panel = devtools(page)
    if (width === 1440) {
      // A wide first visit shows the panel docked beside the chat, on the Projection tab.
      await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-dock', 'right')
      await expect(panel.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
      await expect(panel.getByTestId('panel-projection').getByTestId('projected-messages')).toBeVisible()
    } else {
      await expect(panel.getByTestId('threadlens-panel')).toHaveCount(0)
    }
    // Whatever the page would fetch on its own (idle callbacks, the panel at 1440 px) has had time to.
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1_500)
    const before = [...responses]
    const urls = before.map((response) => response.url)
    expect(
      urls.filter((url) => tokenizerChunk.test(url)),
      'tokenizer fetched before any interaction',
    ).toEqual([])
    expect(
      urls.filter((url) => sendingChunk.test(url)),
      'sending part fetched before any interaction',
    ).toEqual([])
    expect(
      urls.filter((url) => otherTabChunk.test(url)),
      'devtools tabs not shown fetched before any interaction',
    ).toEqual([])
    const bytes = before.reduce((sum, response) => sum + response.gzipBytes, 0)
    const figure = `${width} px: ${before.length} responses, ${(bytes / 1024).toFixed(1)} KB gzip before any interaction`
    testInfo.annotations.push({ type: 'first load', description: figure })
    console.log(`[first load] ${figure}`)
    for (const response of before.sort((a, b) => b.gzipBytes - a.gzipBytes))
      console.log(`  ${(response.gzipBytes / 1024).toFixed(1).padStart(6)} KB  ${new URL(response.url).pathname}`)
    expect(bytes, `${figure}: the goal is under 200 KB`).toBeLessThan(goalBytes)

    await composer(page).click()
    await expect(meter(page)).toHaveAttribute('data-exact', 'true', { timeout: 30_000 })
    await expect(meter(page)).not.toContainText('(estimated)')
    expect(responses.some((response) => tokenizerChunk.test(response.url))).toBe(true)
    if (width === 1440) {
      // The panel docked beside the chat names the chat's policy as the chat's menu does.
      const chosen = await page.getByTestId('chat-policy-select').locator('option:checked').innerText()
      await expect(panel.getByTestId('policy-select').locator('option[value="app"]')).toHaveText(`app: ${chosen}`)
      // After the first interaction the other tabs come in, so switching finds them loaded.
      await expect.poll(() => responses.filter((response) => otherTabChunk.test(response.url)).length, { timeout: 30_000 }).toBe(7)
      await panel.getByTestId('tab-timeline').click()
      await expect(panel.getByTestId('panel-timeline')).toBeVisible()
      await expect(panel.getByTestId('panel-timeline')).not.toHaveAttribute('aria-busy', 'true')
    }
    expect(errors).toEqual([])
  })
}

test("a model's policy chosen on an earlier visit applies at once after a reload, before any interaction", async ({ page }) => {
  const errors = collectErrors(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await openChat(page)
  const select = page.getByTestId('chat-policy-select')
  await select.selectOption('model:claude-haiku-4-5')
  await expect(meter(page)).not.toHaveAttribute('data-budget', '7168')
  const budget = await meter(page).getAttribute('data-budget')
  // The devtools offer the chat's per-model policies once the model table is in.
  await expect(devtools(page).getByTestId('policy-select').locator('option[value="model:gpt-4o-mini"]')).toHaveText('For gpt-4o-mini')

  const budgets: string[] = []
  await page.exposeFunction('recordBudget', (value: string) => budgets.push(value))
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const value = document.querySelector('[data-testid="chat-token-meter"]')?.getAttribute('data-budget')
      if (value != null) (globalThis as unknown as { recordBudget(value: string): void }).recordBudget(value)
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-budget'] })
  })
  await page.reload()
  await expect(meter(page)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 })
  await expect(select).toHaveValue('model:claude-haiku-4-5')
  await expect(meter(page)).toHaveAttribute('data-budget', budget as string)
  // The meter never showed another policy's budget on the way.
  expect([...new Set(budgets)]).toEqual([budget])
  expect(errors).toEqual([])
})
