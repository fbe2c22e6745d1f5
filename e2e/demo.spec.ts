import { expect, test, type Locator } from '@playwright/test'
import { rowStates } from './chat-page'

// The sample thread's hostile entries (demo/src/lab/sample-thread.ts), repeated here on purpose:
// the test checks what a user would see, not what the code exports.
const hostileMessage = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
const hostileLink = '<a href="javascript:window.__xss=3">x</a>'

test.use({ viewport: { width: 1280, height: 720 } })

async function meterNumbers(meter: Locator): Promise<{ total: number; budget: number }> {
  const total = Number(await meter.getAttribute('data-total'))
  const budget = Number(await meter.getAttribute('data-budget'))
  // The visible numbers must say the same as the attributes.
  const shownTotal = Number((await meter.getByTestId('meter-total').innerText()).replace(/[≈,]/g, ''))
  const shownBudget = Number((await meter.getByTestId('meter-budget').innerText()).replace(/[≈,]/g, ''))
  expect(shownTotal).toBe(total)
  expect(shownBudget).toBe(budget)
  return { total, budget }
}

test('the demo projects the sample thread, switches policies and renders hostile content as text', async ({ page }, testInfo) => {
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text())
  })
  page.on('response', (response) => {
    if (response.status() >= 400) pageErrors.push(`${response.status()} ${response.url()}`)
  })

  await page.goto('/?view=lab')
  const meter = page.getByTestId('token-meter')
  // The exact o200k counter is a lazy chunk of about 2 MB: the meter appears once it is loaded.
  await expect(meter).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('counter-status')).toHaveAttribute('data-status', 'ready')
  await expect(page.getByTestId('meter-counter')).toHaveText('exact · o200k_base')

  const initial = await meterNumbers(meter)
  expect(initial.total).toBeGreaterThan(0)
  expect(initial.total).toBeLessThanOrEqual(initial.budget)

  const messages = page.getByTestId('message-list')
  await expect(messages.getByTestId('projected-message').first()).toBeVisible()
  const initialStates = await rowStates(page)
  expect(initialStates.size).toBeGreaterThanOrEqual(40)
  // The short preset fits the whole sample: its summary is not needed and every entry goes as it is.
  // The tiny one leaves older entries out: its summary stands in for them.
  expect([...initialStates.values()]).not.toContain('summarized')
  await page.getByTestId('preset-select').selectOption('tiny')
  await expect.poll(async () => [...(await rowStates(page)).values()]).toContain('summarized')
  await page.getByTestId('preset-select').selectOption('short')
  await expect.poll(async () => [...(await rowStates(page)).values()]).not.toContain('summarized')

  // Hostile markup is shown as text and never becomes DOM.
  await expect(messages.getByText(hostileMessage)).toBeVisible()
  // The short preset masks older tool results (a placeholder naming tool, call and size); the long one sends them whole.
  await expect(messages.getByText(/\[tool result hidden: /).first()).toBeVisible()
  await page.getByTestId('preset-select').selectOption('long')
  await expect(messages.getByText(hostileLink)).toBeVisible()
  await page.getByTestId('preset-select').selectOption('short')
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
  await expect(page.locator('#root img')).toHaveCount(0)
  await expect(page.locator('#root script')).toHaveCount(0)
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0)

  const screenshotPath = testInfo.outputPath('demo.png')
  await page.screenshot({ path: screenshotPath })
  await testInfo.attach('demo', { path: screenshotPath, contentType: 'image/png' })

  // Provider requests render as preformatted text too.
  // The radios are styled as a segmented control: click the visible label, as a user does.
  await page.locator('label', { hasText: 'OpenAI chat' }).click()
  await expect(page.getByRole('radio', { name: 'OpenAI chat' })).toBeChecked()
  const requestJson = page.getByTestId('request-json')
  await expect(requestJson).toHaveAttribute('data-provider', 'openai')
  await expect(requestJson).toContainText('"tool_calls"')
  await expect(requestJson).toContainText('window.__xss=2')
  await page.locator('label', { hasText: 'Anthropic messages' }).click()
  await expect(page.getByRole('radio', { name: 'Anthropic messages' })).toBeChecked()
  await expect(requestJson).toHaveAttribute('data-provider', 'anthropic')
  await expect(requestJson).toContainText('"tool_use"')

  // The tiny policy must drop history by budget.
  await page.getByTestId('preset-select').selectOption('tiny')
  await expect(meter).not.toHaveAttribute('data-total', String(initial.total))
  const tiny = await meterNumbers(meter)
  expect(tiny.total).not.toBe(initial.total)
  expect(tiny.budget).toBe(768)
  expect(tiny.total).toBeLessThanOrEqual(tiny.budget)
  const tinyStates = await rowStates(page)
  const newlyDropped = [...tinyStates].filter(([seq, state]) => state === 'dropped' && initialStates.get(seq) !== 'dropped')
  expect(newlyDropped.length).toBeGreaterThan(0)
  await expect(page.locator('[data-testid="timeline-row"][data-state="dropped"]').filter({ hasText: 'over the token budget' }).first()).toBeVisible()

  const tinyPath = testInfo.outputPath('demo-tiny.png')
  await page.screenshot({ path: tinyPath })
  await testInfo.attach('demo-tiny', { path: tinyPath, contentType: 'image/png' })

  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
  expect(pageErrors).toEqual([])
})
