import { expect, test } from '@playwright/test'
import { routeFakeProvider } from '@threadlens/testing/playwright'
import { assistantMessages, collectErrors, composer, openChat, openDevtools, screenshot, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

test('a model error is shown and the thread stays intact; the next message works', async ({ page }) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)
  await send(page, 'hello')
  const before = await storedEntries(page, threadId)

  await send(page, '/error')
  const alert = page.getByTestId('chat-error')
  await expect(alert).toBeVisible()
  await expect(alert).toContainText('The model call failed (ScriptedFailure): The offline model failed on purpose')
  // The user's message is kept; nothing else was written; nothing was lost.
  const after = await storedEntries(page, threadId)
  expect(after.slice(0, before.length)).toEqual(before)
  expect(after.slice(before.length)).toEqual([
    { seq: before.length, kind: 'message', payload: { role: 'user', content: '/error' }, refs: expect.any(Object) },
  ])
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]').last()).toContainText('/error')
  await expect(composer(page)).toBeEnabled()
  // The devtools show the failure once, in the last-call line (the chat's own notice is the app's).
  const panel = await openDevtools(page)
  await expect(panel.getByTestId('last-call')).toHaveAttribute('data-status', 'failed')
  await expect(panel.getByTestId('last-call')).toContainText('failed')
  await expect(panel.getByText('failed on purpose')).toHaveCount(1)
  await expect(panel.getByRole('alert')).toHaveCount(0)

  await send(page, 'are you still there?')
  await expect(alert).toBeHidden()
  await expect(assistantMessages(page).last()).toContainText('You said: "are you still there?"')
  expect(errors).toEqual([])
})

test('a real model over an OpenAI-compatible URL: its failure is shown, it answers after, and the key is never stored', async ({
  page,
}, testInfo) => {
  const errors = collectErrors(page)
  const secret = 'sk-test-NEVER-STORED-1234'
  // The scripted fake OpenAI-compatible server on the page's own origin (no network, no CORS): it
  // checks every request as the real API does; the first answer is its 401, the second a reply.
  const fake = await routeFakeProvider(page, {
    apiKey: secret,
    script: [
      {
        fail: 'raw',
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      },
      { text: 'Hello from the real-model path.', inputTokens: 900, outputTokens: 6 },
    ],
  })
  const threadId = await openChat(page)

  await page.getByTestId('model-label').click()
  const settings = page.getByTestId('settings-panel')
  await settings.getByLabel('OpenAI-compatible server').check()
  // The defaults point at a local Ollama.
  await expect(settings.getByLabel('Base URL')).toHaveValue('http://localhost:11434/v1')
  await settings.getByLabel(/^API key/).fill(secret)
  await expect(settings.getByTestId('key-notice')).toContainText('never stored: not in localStorage, not in IndexedDB, not in exports')
  await screenshot(page, testInfo, 'chat-settings')
  await settings.getByLabel('Base URL').fill(fake.baseURL)
  await settings.getByLabel('Model id').fill('gpt-4o-mini')
  await settings.getByRole('button', { name: 'Use this model' }).click()
  await expect(page.getByTestId('model-label')).toHaveText(`Model: gpt-4o-mini · ${fake.baseURL}`)

  // threadlens knows gpt-4o-mini: its own policy (window, output limit, tokenizer) is offered.
  await page.getByTestId('chat-policy-select').selectOption('model:gpt-4o-mini')
  await expect(page.getByTestId('chat-token-meter')).toHaveAttribute('data-budget', /^\d{5,}$/)

  await send(page, 'hi there')
  await expect(page.getByTestId('chat-error')).toContainText('ProviderAuthError')
  await expect(page.getByTestId('chat-error')).not.toContainText(secret)
  expect((await storedEntries(page, threadId)).map((entry) => entry.kind)).toEqual(['message'])

  await send(page, 'hi again')
  await expect(assistantMessages(page).last()).toContainText('Hello from the real-model path.')
  expect(fake.requests.map((request) => request.headers['authorization'])).toEqual([`Bearer ${secret}`, `Bearer ${secret}`])
  expect(fake.requests.flatMap((request) => request.problems)).toEqual([])

  // The key is nowhere in storage or in the export.
  const stored = await page.evaluate(async (id) => {
    const handle = (window as unknown as { __threadlensChat: { stores: { threads: { export(id: string): Promise<string> } } } }).__threadlensChat
    const everything: string[] = [
      await handle.stores.threads.export(id),
      JSON.stringify({ ...localStorage }),
      JSON.stringify({ ...sessionStorage }),
      document.cookie,
    ]
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name as string)
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      for (const name of [...db.objectStoreNames]) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(name).objectStore(name).getAll()
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        })
        everything.push(JSON.stringify(rows))
      }
      db.close()
    }
    return everything.join('\n')
  }, threadId)
  expect(stored).toContain('hi again')
  // The failed attempt is on record in the call log (not in the thread), and the key is not in it either.
  expect(stored).toContain('ProviderAuthError')
  expect(stored).not.toContain('NEVER-STORED')

  // A reload forgets the key: the offline model answers again.
  await page.reload()
  await expect(page.getByTestId('model-label')).toHaveText('Model: offline (scripted)', { timeout: 30_000 })
  expect(errors.filter((error) => !error.includes('status of 401'))).toEqual([])
})

test('Stop ends a streaming reply: what arrived is kept, marked interrupted, and the chat goes on', async ({ page }) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page, '/?delay=30')
  await composer(page).fill('Tell me about yourself, in detail')
  await composer(page).press('Enter')
  await expect(page.getByTestId('streaming-reply')).toBeVisible()
  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(page.getByTestId('chat-notice')).toContainText('Stopped. What was streamed so far is kept in the thread.')
  const partial = assistantMessages(page).last()
  await expect(partial).toContainText('interrupted')
  const entries = await storedEntries(page, threadId)
  expect(entries.map((entry) => entry.kind)).toEqual(['message', 'message'])
  // The stored reply is the part that streamed: a non-empty prefix of the full answer.
  const text = (entries[1]!.payload as { content: string }).content
  const answerStart = 'You said: "Tell me about yourself, in detail". In my context I see '
  expect(text.length).toBeGreaterThan(0)
  expect(answerStart.startsWith(text) || text.startsWith(answerStart)).toBe(true)
  await expect(partial.locator('.chat-message-text')).toHaveText(text)
  await expect(composer(page)).toBeEnabled()
  await composer(page).fill('ok, what is 1 + 1')
  await composer(page).press('Enter')
  await expect(assistantMessages(page).last()).toContainText('1 + 1 = 2.', { timeout: 30_000 })
  expect(errors).toEqual([])
})
