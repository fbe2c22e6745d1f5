import { expect, test } from '@playwright/test'
import { assistantMessages, collectErrors, composer, devtools, devtoolsToggle, isUncovered, meter, openChat, openDevtools, screenshot, send } from './chat-page'

test.use({ viewport: { width: 390, height: 844 } })

test('a narrow window: the chat list is a drawer, the devtools docked at the bottom, the meter and composer always in reach', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await openChat(page)
  const sidebar = page.getByRole('complementary', { name: 'Chats and memory' })
  await expect(sidebar).toBeHidden()
  await expect(meter(page)).toBeVisible()
  // A phone starts with the devtools closed (the first visit on a wide window opens them).
  await expect(devtools(page).getByTestId('devtools-frame')).toHaveCount(0)
  await expect(devtoolsToggle(page)).toHaveAttribute('aria-expanded', 'false')

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

  const panel = await openDevtools(page)
  await expect(panel.getByTestId('devtools-frame')).toHaveAttribute('data-dock', 'bottom')
  // The chat gives the docked panel its room: the meter and the composer stay in reach above it.
  expect(await isUncovered(meter(page))).toBe(true)
  expect(await isUncovered(composer(page))).toBe(true)
  await panel.getByTestId('devtools-close').click()
  await expect(panel.getByTestId('devtools-frame')).toHaveCount(0)
  await expect(devtoolsToggle(page)).toBeFocused()
  expect(errors).toEqual([])
})
