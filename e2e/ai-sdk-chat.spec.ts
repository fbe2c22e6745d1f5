import { expect, test, type Page } from '@playwright/test'
import { collectErrors } from './chat-page'

// The demo's "AI SDK chat" route (`?view=ai-sdk`): the adoption example of @threadlens/ai-sdk, a
// `useChat` app with its history in IndexedDB, run offline with the AI SDK's mock model.

test.use({ viewport: { width: 1280, height: 900 } })

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Message')
  await expect(input).toBeEnabled({ timeout: 20_000 })
  await input.fill(text)
  await input.press('Enter')
  await expect(page.locator('article[data-role="user"]').last()).toContainText(text.slice(0, 40))
  await expect(input).toBeEnabled({ timeout: 20_000 })
}

const assistantTexts = (page: Page) => page.locator('article[data-role="assistant"] p').allTextContents()

test('send, tool call, reload: the history comes back from IndexedDB', async ({ page }) => {
  const errors = collectErrors(page)
  await page.goto('/?view=ai-sdk')
  await send(page, 'hello there')
  await expect(page.locator('article[data-role="assistant"]').last()).toContainText('You said "hello there". I was sent 2 messages.')

  await send(page, 'weather in Oslo')
  const reply = page.locator('article[data-role="assistant"]').last()
  await expect(reply.locator('pre')).toContainText('"state": "output-available"')
  await expect(reply).toContainText('The weather tool says: {"city":"Oslo"')

  const before = await page.locator('main.chat article').allTextContents()
  await page.reload()
  await expect(page.locator('main.chat article')).toHaveCount(before.length)
  expect(await page.locator('main.chat article').allTextContents()).toEqual(before)
  expect(errors).toEqual([])
})

test('the devtools show the projection the model was sent, and replay each call exactly', async ({ page }) => {
  await page.goto('/?view=ai-sdk')
  await send(page, 'weather in Kyoto')
  await expect(page.locator('article[data-role="assistant"]').last()).toContainText('The weather tool says')
  const devtools = page.getByTestId('threadlens-devtools')
  await devtools.getByTestId('devtools-toggle').click()
  await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  await expect(devtools.getByTestId('projected-message').first()).toBeVisible()
  await expect(devtools.getByTestId('projected-messages')).toContainText('weather in Kyoto')
  await devtools.getByTestId('tab-calls').click()
  // one call asked for the tool, one answered with its result: both recorded, both replayed from the thread
  await expect(devtools.getByTestId('call-row')).toHaveCount(2)
  for (const index of [0, 1]) {
    await devtools.getByTestId('call-row').nth(index).click()
    await expect(devtools.getByTestId('replay-verified')).toContainText('matches the recorded messages hash')
  }
})

test('two tabs write one chat: each sees the other live (watch), nothing is lost and nothing branches', async ({ context }) => {
  const first = await context.newPage()
  const second = await context.newPage()
  await first.goto('/?view=ai-sdk')
  await second.goto('/?view=ai-sdk')
  await expect(second.getByLabel('Message')).toBeEnabled({ timeout: 20_000 })
  await send(first, 'from the first tab')
  // The other tab hears the stored messages through `chat.watch` and shows them without a reload.
  await expect(second.locator('article[data-role="user"]')).toHaveText(['from the first tab'])
  await expect(second.locator('article[data-role="assistant"]')).toHaveCount(1)
  await send(second, 'from the second tab')
  await expect(first.locator('article[data-role="user"]')).toHaveText(['from the first tab', 'from the second tab'])
  await first.reload()
  await expect(first.locator('article[data-role="user"]')).toHaveText(['from the first tab', 'from the second tab'])
  await expect(first.locator('article[data-role="assistant"]')).toHaveCount(2)
})

test('a long session is summarized and every call stays within the budget', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/?view=ai-sdk')
  for (let turn = 0; turn < 10; turn += 1)
    await send(page, `turn ${turn}: ${'we compared ferry times, hotel prices and the rail pass for the Kyoto trip once more. '.repeat(3)}`)
  // the model was told how many messages it received: fewer than the 20 in the chat (a summary of
  // the oldest turns and the newest that fit)
  const lastReply = (await assistantTexts(page)).at(-1) ?? ''
  const sent = Number(/I was sent (\d+) messages/.exec(lastReply)?.[1])
  expect(sent).toBeGreaterThan(0)
  expect(sent).toBeLessThan(20)
  await expect(page.locator('article[data-role="user"]')).toHaveCount(10)

  const devtools = page.getByTestId('threadlens-devtools')
  await devtools.getByTestId('devtools-toggle').click()
  const meter = devtools.getByTestId('meter-compact')
  await expect(meter).toBeVisible({ timeout: 30_000 })
  await expect(devtools.getByTestId('segment-summary')).toBeVisible()
  expect(Number(await meter.getAttribute('data-total'))).toBeLessThanOrEqual(800)
})

test('regenerate keeps the old answer in the thread it was in, and a reload shows the new branch', async ({ page }) => {
  await page.goto('/?view=ai-sdk')
  await send(page, 'first question')
  await send(page, 'second question')
  await expect(page.locator('article[data-role="assistant"]')).toHaveCount(2)
  await page.getByRole('button', { name: 'Regenerate' }).click()
  await expect(page.getByLabel('Message')).toBeEnabled({ timeout: 20_000 })
  await expect(page.locator('article[data-role="assistant"]')).toHaveCount(2)
  await page.reload()
  await expect(page.locator('article[data-role="user"]')).toHaveText(['first question', 'second question'])
  await expect(page.locator('article[data-role="assistant"]')).toHaveCount(2)
  const threads = await page.evaluate(async () => {
    const request = indexedDB.open('my-chat')
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const rows = await new Promise<{ id: string; entryCount: number; parent: { threadId: string; atSeq: number } | null }[]>((resolve, reject) => {
      const read = db.transaction('threads').objectStore('threads').getAll()
      read.onsuccess = () => resolve(read.result as never)
      read.onerror = () => reject(read.error)
    })
    db.close()
    return rows.map((row) => ({ id: row.id, entryCount: row.entryCount, parent: row.parent })).sort((a, b) => a.id.localeCompare(b.id))
  })
  // the first answer stays whole in `chat`; the branch copies up to the second question and holds the new answer
  expect(threads).toEqual([
    { id: 'chat', entryCount: 4, parent: null },
    { id: 'chat:v1', entryCount: 4, parent: { threadId: 'chat', atSeq: 2 } },
  ])
})
