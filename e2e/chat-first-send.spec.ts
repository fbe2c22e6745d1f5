import { expect, test } from '@playwright/test'
import { assistantMessages, collectErrors, composer, meterNumbers, openChat } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

// The session, model clients and tools are a chunk of their own, loaded after the first paint
// (demo/src/chat/session/chat-agent.ts). Held back here, a send made before it arrives must show
// the message at once and go out as soon as the chunk is there.
test('a message sent before the sending part has loaded shows at once and goes out when it arrives', async ({ page }) => {
  const errors = collectErrors(page)
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let requested = 0
  await page.route(/\/assets\/chat-agent-[\w-]+\.js$/, async (route) => {
    requested += 1
    await released
    await route.continue()
  })
  await openChat(page)
  // The first screen is complete without it: composer enabled, meter counted with the tools' schemas.
  await expect(page.getByTestId('chat-empty')).toBeVisible()
  const before = await meterNumbers(page)
  expect(before.total).toBeGreaterThan(0)
  await composer(page).fill('Hello! What can you do?')
  await composer(page).press('Enter')
  await expect(page.getByTestId('pending-message')).toContainText('Hello! What can you do?')
  await expect.poll(() => requested).toBeGreaterThan(0)
  await expect(page.getByTestId('entry-count')).toHaveText('0')
  expect((await meterNumbers(page)).total).toBe(before.total)

  release()
  await expect(assistantMessages(page).last()).toContainText('In my context I see', { timeout: 30_000 })
  await expect(page.getByTestId('entry-count')).toHaveText('2')
  await expect(page.getByTestId('pending-message')).toHaveCount(0)
  expect(requested).toBe(1)
  expect(errors).toEqual([])
})
