import { expect, test } from '@playwright/test'
import { assistantMessages, collectErrors, devtools, meter, openChat, screenshot, send } from './chat-page'

test.use({ viewport: { width: 390, height: 844 } })

test('a narrow window: the chat list is a drawer, the devtools a sheet, the meter always in view', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await openChat(page)
  const sidebar = page.getByRole('complementary', { name: 'Chats and memory' })
  await expect(sidebar).toBeHidden()
  await expect(meter(page)).toBeVisible()
  await expect(page.getByTestId('threadlens-devtools-panel')).toHaveCount(0)

  await send(page, 'What is 17% of 2,340?')
  await expect(assistantMessages(page).last()).toContainText('= 397.8.')
  await expect(meter(page)).toBeInViewport()
  await screenshot(page, testInfo, 'chat-narrow')

  const chats = page.getByRole('button', { name: 'Chats', exact: true })
  await chats.click()
  await expect(chats).toHaveAttribute('aria-expanded', 'true')
  await expect(sidebar).toBeVisible()
  await sidebar.getByRole('button', { name: 'New chat' }).click()
  await expect(sidebar).toBeHidden()
  await expect(page.getByTestId('chat-title')).toHaveText('New chat')
  await expect(page.getByTestId('thread-row')).toHaveCount(2)

  await page.getByRole('button', { name: 'Devtools' }).click()
  await expect(devtools(page).getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
  await expect(meter(page)).toBeInViewport()
  await page.getByRole('button', { name: 'Close devtools' }).click()
  await expect(page.getByTestId('threadlens-devtools-panel')).toHaveCount(0)
  expect(errors).toEqual([])
})
