import { expect, test } from '@playwright/test'
import { artifact, assistantMessages, collectErrors, devtools, meterNumbers, openChat, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

test('reload: the chat, its title, memory, the policy and the devtools state are all back', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)
  await send(page, 'Remember that the hotel is the Grand Ferdinand')
  await send(page, 'what is 6*7')
  await expect(assistantMessages(page).last()).toContainText('6*7 = 42.')

  const row = page.locator('[data-testid="thread-row"][data-active="true"]')
  await row.getByRole('button', { name: /^Rename / }).click()
  await row.getByRole('textbox').fill('Vienna trip')
  await row.getByRole('textbox').press('Enter')
  await expect(page.getByTestId('chat-title')).toHaveText('Vienna trip')

  await page.getByTestId('chat-policy-select').selectOption('long')
  await expect(page.getByTestId('chat-token-meter')).toHaveAttribute('data-budget', '119808')
  const panel = devtools(page)
  await panel.getByTestId('tab-memory').click()
  await expect(panel.locator('[data-testid="memory-space"][data-name="world"]')).toContainText('the hotel is the Grand Ferdinand')
  const entries = await storedEntries(page, threadId)
  const shown = await page.getByTestId('chat-message').count()

  await page.reload()
  await expect(page.getByTestId('chat-token-meter')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 })
  expect(page.url()).toContain(`#thread=${threadId}`)
  await expect(page.getByTestId('chat-title')).toHaveText('Vienna trip')
  await expect(page.getByTestId('entry-count')).toHaveText(String(entries.length))
  await expect(page.getByTestId('chat-message')).toHaveCount(shown)
  await expect(assistantMessages(page).last()).toContainText('6*7 = 42.')
  await expect(page.getByTestId('tool-card')).toHaveCount(2)
  // Memory: in the sidebar and in the memory segment the model sees.
  await expect(page.getByTestId('memory-note')).toHaveText('hotel-grand-ferdinand the hotel is the Grand Ferdinand')
  // The policy is remembered, and the devtools reopen on the tab they were on.
  await expect(page.getByTestId('chat-policy-select')).toHaveValue('long')
  expect((await meterNumbers(page)).budget).toBe(119_808)
  await expect(panel.getByTestId('tab-memory')).toHaveAttribute('aria-selected', 'true')
  await expect(panel.locator('[data-testid="memory-space"][data-name="world"]')).toContainText('the hotel is the Grand Ferdinand')
  expect(await storedEntries(page, threadId)).toEqual(entries)

  await send(page, 'what do you remember?')
  await expect(assistantMessages(page).last()).toContainText('hotel-grand-ferdinand: the hotel is the Grand Ferdinand')
  await artifact(page, testInfo, 'chat-memory')
  expect(errors).toEqual([])
})
