import { expect, test } from '@playwright/test'
import { artifact, assistantMessages, collectErrors, composer, devtools, meter, meterNumbers, openChat, send } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

test("a new user's first minute: send, a streamed reply, the projection and the meter follow", async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  // Record every text the streaming bubble shows, to prove the reply arrived in pieces.
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __streamed: string[] }).__streamed = seen
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="streaming-reply"] .chat-message-text')?.textContent
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  // A small pause per chunk, as the demo streams by default, so rendering sees each piece.
  await openChat(page, '/?delay=10')

  // A brand-new user lands in an empty first chat with suggestions, the devtools open beside it.
  await expect(page.getByTestId('chat-empty')).toBeVisible()
  await expect(page.getByTestId('chat-title')).toHaveText('New chat')
  await expect(page.getByTestId('entry-count')).toHaveText('0')
  const panel = devtools(page)
  await expect(panel.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  const before = await meterNumbers(page)
  expect(before.total).toBeGreaterThan(0)
  await artifact(page, testInfo, 'chat-empty')

  await send(page, 'Hello! What can you do?')
  const reply = assistantMessages(page).last()
  await expect(reply).toContainText('In my context I see')
  const final = await reply.locator('.chat-message-text').innerText()
  const streamed = await page.evaluate(() => (window as unknown as { __streamed: string[] }).__streamed)
  expect(streamed.length).toBeGreaterThan(3)
  expect(streamed[0]?.length ?? 0).toBeLessThan(final.length)
  for (const piece of streamed) expect(final.startsWith(piece)).toBe(true)

  // The thread holds the user message and the reply; the chat is titled after the first message.
  await expect(page.getByTestId('entry-count')).toHaveText('2')
  await expect(page.getByTestId('chat-title')).toHaveText('Hello! What can you do?')
  await expect(page.getByTestId('thread-row').first().getByTestId('thread-title')).toHaveText('Hello! What can you do?')

  // The meter and the devtools' projection now include the exchange.
  await expect(meter(page)).not.toHaveAttribute('data-total', String(before.total))
  const after = await meterNumbers(page)
  expect(after.total).toBeGreaterThan(before.total)
  expect(after.total).toBeLessThanOrEqual(after.budget)
  await expect(panel.getByTestId('projected-messages')).toContainText('Hello! What can you do?')
  await expect(panel.getByTestId('projected-messages')).toContainText('In my context I see')

  // The second message sees the first exchange in its context.
  await send(page, 'And how much context do you have now?')
  await expect(assistantMessages(page).last()).toContainText('2 of them yours')
  await expect(composer(page)).toBeEnabled()
  await artifact(page, testInfo, 'chat-first-reply')
  expect(errors).toEqual([])
})
