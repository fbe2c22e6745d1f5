import { expect, type Page, test } from '@playwright/test'
import { routeFakeProvider } from '@threadlens/testing/playwright'
import { assistantMessages, collectErrors, composer, openChat, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

/** Points the demo's settings at the scripted fake OpenAI-compatible server on the page's own origin (a local server: no key). */
async function useFakeServer(page: Page, baseURL: string): Promise<void> {
  await page.getByTestId('model-label').click()
  const settings = page.getByTestId('settings-panel')
  await settings.getByLabel('OpenAI-compatible server').check()
  await settings.getByLabel('Base URL').fill(baseURL)
  await settings.getByLabel('Model id').fill('local-model')
  await settings.getByRole('button', { name: 'Use this model' }).click()
  await expect(page.getByTestId('model-label')).toHaveText(`Model: local-model · ${baseURL}`)
}

test('a rate-limited server: the chat counts down each retry, then shows the answer', async ({ page }) => {
  const errors = collectErrors(page)
  const fake = await routeFakeProvider(page, {
    apiKey: null,
    script: [
      { fail: 'rate-limit', headers: { 'retry-after': '1' } },
      { fail: 'rate-limit', headers: { 'retry-after': '1' } },
      { text: 'Made it on the third try.' },
    ],
  })
  await openChat(page)
  await useFakeServer(page, fake.baseURL)
  // Not `send`: it waits for the reply, and the countdown is shown while the reply is awaited.
  await composer(page).fill('hello?')
  await composer(page).press('Enter')
  const notice = page.getByTestId('retry-notice')
  await expect(notice).toContainText(/The model server failed \(RateLimitError\): retrying in 1 s \(2\/3\)/)
  await expect(notice).toContainText('(3/3)')
  await expect(assistantMessages(page).last()).toContainText('Made it on the third try.')
  await expect(notice).toBeHidden()
  expect(fake.calls).toBe(3)
  expect(fake.requests.flatMap((request) => request.problems)).toEqual([])
  expect(errors.filter((error) => !error.includes('status of 429'))).toEqual([])
})

test('a server whose real window is smaller than the policy says: one bounded try, a typed error that names the limit, the limit remembered', async ({
  page,
}) => {
  const errors = collectErrors(page)
  // The server counts every prompt as 1,400 tokens against its 1,000-token window: it refuses forever.
  const fake = await routeFakeProvider(page, { apiKey: null, maxContextTokens: 1000, countPromptTokens: () => 1400 })
  const threadId = await openChat(page)
  await useFakeServer(page, fake.baseURL)
  await send(page, 'hello?')
  const alert = page.getByTestId('chat-error')
  await expect(alert).toContainText('ContextTooLongError')
  await expect(alert).toContainText('1400 tokens requested, limit 1000')
  await expect(page.getByTestId('server-limit-notice')).toContainText("The server's real context window is 1,000 tokens")
  // Compaction has nothing to summarize in a new chat, and what must be sent does not fit the named
  // window: the session stops instead of sending the same request again.
  expect(fake.calls).toBeLessThanOrEqual(2)
  expect((await storedEntries(page, threadId)).map((entry) => entry.kind)).toEqual(['message'])
  await page.waitForTimeout(500)
  expect(fake.calls).toBeLessThanOrEqual(2)
  expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([])
})
