import { expect, type Page, test } from '@playwright/test'
import { assistantMessages, collectErrors, composer, openChat, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

const chunk = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`
const reply = (text: string): string =>
  `${chunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] })}${chunk({ choices: [], usage: { prompt_tokens: 900, completion_tokens: 6 } })}data: [DONE]\n\n`

/** Points the demo's settings at a fake OpenAI-compatible server on the page's own origin. */
async function useFakeServer(page: Page): Promise<void> {
  await page.getByTestId('model-label').click()
  const settings = page.getByTestId('settings-panel')
  await settings.getByLabel('OpenAI-compatible server').check()
  await settings.getByLabel('Base URL').fill('http://127.0.0.1:4173/fake-llm/v1')
  await settings.getByLabel('Model id').fill('local-model')
  await settings.getByRole('button', { name: 'Use this model' }).click()
  await expect(page.getByTestId('model-label')).toHaveText('Model: local-model · http://127.0.0.1:4173/fake-llm/v1')
}

test('a rate-limited server: the chat counts down each retry, then shows the answer', async ({ page }) => {
  const errors = collectErrors(page)
  let calls = 0
  await page.route('**/fake-llm/v1/chat/completions', async (route) => {
    calls += 1
    if (calls <= 2) {
      await route.fulfill({ status: 429, contentType: 'application/json', headers: { 'retry-after': '1' }, body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }) })
      return
    }
    await route.fulfill({ status: 200, contentType: 'text/event-stream', body: reply('Made it on the third try.') })
  })
  await openChat(page)
  await useFakeServer(page)
  // Not `send`: it waits for the reply, and the countdown is shown while the reply is awaited.
  await composer(page).fill('hello?')
  await composer(page).press('Enter')
  const notice = page.getByTestId('retry-notice')
  await expect(notice).toContainText(/The model server failed \(RateLimitError\): retrying in 1 s \(2\/3\)/)
  await expect(notice).toContainText('(3/3)')
  await expect(assistantMessages(page).last()).toContainText('Made it on the third try.')
  await expect(notice).toBeHidden()
  expect(calls).toBe(3)
  expect(errors.filter((error) => !error.includes('status of 429'))).toEqual([])
})

test('a server whose real window is smaller than the policy says: one bounded try, a typed error that names the limit, the limit remembered', async ({ page }) => {
  const errors = collectErrors(page)
  let calls = 0
  await page.route('**/fake-llm/v1/chat/completions', async (route) => {
    calls += 1
    await route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { message: "This model's maximum context length is 1000 tokens. However, your messages resulted in 1400 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' },
      }),
    })
  })
  const threadId = await openChat(page)
  await useFakeServer(page)
  await send(page, 'hello?')
  const alert = page.getByTestId('chat-error')
  await expect(alert).toContainText('ContextTooLongError')
  await expect(alert).toContainText('1400 tokens requested, limit 1000')
  await expect(page.getByTestId('server-limit-notice')).toContainText("The server's real context window is 1,000 tokens")
  // Compaction has nothing to summarize in a new chat, and what must be sent does not fit the named
  // window: the session stops instead of sending the same request again.
  expect(calls).toBeLessThanOrEqual(2)
  expect((await storedEntries(page, threadId)).map((entry) => entry.kind)).toEqual(['message'])
  await page.waitForTimeout(500)
  expect(calls).toBeLessThanOrEqual(2)
  expect(errors.filter((error) => !error.includes('status of 400'))).toEqual([])
})
