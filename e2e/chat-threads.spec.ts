import { readFile, writeFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { assistantMessages, collectErrors, openChat, send, threadIdOf } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

function activeRow(page: Page) {
  return page.locator('[data-testid="thread-row"][data-active="true"]')
}

async function exportActive(page: Page): Promise<{ name: string; text: string; path: string }> {
  const download = page.waitForEvent('download')
  await activeRow(page)
    .getByRole('button', { name: /^Export / })
    .click()
  const file = await download
  const path = await file.path()
  return { name: file.suggestedFilename(), text: await readFile(path, 'utf8'), path }
}

/** Entries of an export without what a new thread gives each copy (ids, thread id, cached token counts). */
function content(jsonl: string) {
  const [header, ...lines] = jsonl
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  const entries = lines.map(({ id: _id, threadId: _threadId, meta, ...entry }) => {
    const { tokens: _tokens, ...kept } = meta ?? {}
    return Object.keys(kept).length === 0 ? entry : { ...entry, meta: kept }
  })
  return { title: header.thread.title as string, entryCount: header.entryCount as number, entries }
}

test('export a chat as JSONL, import it into a fresh browser profile: identical content', async ({ page, browser }) => {
  const errors = collectErrors(page)
  await openChat(page)
  await send(page, 'What is 17% of 2,340?')
  await send(page, 'Remember that the ferry leaves at 7:15')
  await send(page, 'read the ferry schedule')
  await activeRow(page)
    .getByRole('button', { name: /^Rename / })
    .click()
  await activeRow(page).getByRole('textbox').fill('Ferry planning')
  await activeRow(page).getByRole('textbox').press('Enter')
  await expect(page.getByTestId('chat-title')).toHaveText('Ferry planning')

  const exported = await exportActive(page)
  expect(exported.name).toBe('Ferry-planning.jsonl')
  const original = content(exported.text)
  expect(original.title).toBe('Ferry planning')
  expect(original.entries.length).toBe(original.entryCount)
  expect(original.entries.map((entry) => entry.kind)).toContain('tool_result')

  // A fresh profile: its own, empty IndexedDB.
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const other = await fresh.newPage()
  const otherErrors = collectErrors(other)
  await openChat(other)
  await expect(other.getByTestId('thread-row')).toHaveCount(1)
  await other.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(exported.path)
  await expect(other.getByTestId('chat-title')).toHaveText('Ferry planning')
  await expect(other.getByTestId('thread-row')).toHaveCount(2)
  await expect(other.getByTestId('entry-count')).toHaveText(String(original.entryCount))
  await expect(other.getByTestId('app-notice')).toHaveText(`Imported “Ferry planning” (${original.entryCount} entries) and opened it. Dismiss`)
  await expect(other.locator('[data-testid="tool-card"][data-tool="read_document"]')).toContainText('cut from 3,011 lines')
  await expect(assistantMessages(other).last().locator('.chat-message-text')).toHaveText(
    await assistantMessages(page).last().locator('.chat-message-text').innerText(),
  )

  const reexported = await exportActive(other)
  expect(content(reexported.text)).toEqual(original)
  // It goes on where it left off.
  await send(other, 'and what is 2 + 2?')
  await expect(assistantMessages(other).last()).toContainText('2 + 2 = 4.')
  // The same file again: a second chat, selected, whose title tells it apart.
  await other.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(exported.path)
  await expect(other.getByTestId('chat-title')).toHaveText('Ferry planning (imported)')
  await expect(other.getByTestId('thread-row')).toHaveCount(3)
  await expect(other.getByTestId('app-notice')).toContainText('a chat with the same title already exists, so this one is marked “(imported)”')
  await expect(activeRow(other)).toContainText('Ferry planning (imported)')
  await fresh.close()
  expect(errors).toEqual([])
  expect(otherErrors).toEqual([])
})

test('import an OpenAI messages JSON file; a bad file is refused with a message and changes nothing', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await openChat(page)
  const path = testInfo.outputPath('support-chat.json')
  // Repeated on purpose: an OpenAI messages file, like the one in packages/store/src/testing/thread-store-contract.ts (this one goes through the chat's file input).
  await writeFile(
    path,
    JSON.stringify([
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'What is the capital of Norway?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"country":"Norway"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Oslo' },
      { role: 'assistant', content: 'Oslo.' },
    ]),
  )
  await page.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(path)
  await expect(page.getByTestId('chat-title')).toHaveText('support-chat')
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText([/What is the capital of Norway\?/])
  await expect(page.locator('[data-testid="tool-card"][data-tool="lookup"]')).toHaveAttribute('data-status', 'ok')
  await expect(assistantMessages(page).last()).toContainText('Oslo.')
  await expect(page.getByTestId('app-notice')).toHaveText('Imported “support-chat” (4 entries) and opened it. Dismiss')

  // A recorded conversation that reuses a call id and calls without arguments: kept, and the changes counted.
  const recorded = testInfo.outputPath('recorded-chat.json')
  await writeFile(
    recorded,
    JSON.stringify([
      { role: 'user', content: 'Order status?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"order": 12}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'shipped' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'no order given' },
    ]),
  )
  await page.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(recorded)
  await expect(page.getByTestId('chat-title')).toHaveText('recorded-chat')
  await expect(page.getByTestId('app-notice')).toHaveText('Imported “recorded-chat” (5 entries) and opened it. 3 changes made on import. Dismiss')

  const bad = testInfo.outputPath('broken.jsonl')
  await writeFile(bad, '{"format":"something-else"}\n')
  await page.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(bad)
  await expect(page.getByTestId('app-problem')).toContainText('Importing broken.jsonl failed')
  await expect(page.getByTestId('thread-row')).toHaveCount(3)
  expect(errors).toEqual([])
})

test('fork from any message, rename, delete: the sidebar keeps up', async ({ page }) => {
  const errors = collectErrors(page)
  await openChat(page)
  await send(page, 'What is 6 * 7?')
  await send(page, 'convert 10 kg to lb')
  const parent = threadIdOf(page)

  // Fork at the calculator's answer (#4): the fork has entries 0..4 only.
  const answer = page.locator('[data-testid="chat-message"][data-seq="4"]')
  await answer.hover()
  await answer.getByRole('button', { name: 'Fork the chat from entry 4' }).click()
  await expect(page.getByTestId('chat-title')).toHaveText('What is 6 * 7? (fork at #4)')
  expect(threadIdOf(page)).not.toBe(parent)
  await expect(page.getByTestId('entry-count')).toHaveText('5')
  await expect(activeRow(page)).toContainText('fork at #4')
  await expect(page.locator('[data-testid="tool-card"][data-tool="convert_units"]')).toHaveCount(0)
  await send(page, 'convert 10 kg to stone')
  await expect(assistantMessages(page).last()).toContainText('10 kg is 1.57473 st.')

  // Fork from a tool card: at its result, so the call and its result stay together.
  const card = page.locator('[data-testid="tool-card"][data-tool="convert_units"]')
  await card.locator('summary').click()
  await card.getByRole('button', { name: /^Fork the chat from entry / }).click()
  await expect(page.getByTestId('chat-title')).toHaveText(/\(fork at #\d+\) \(fork at #8\)$/)
  await expect(page.getByTestId('thread-row')).toHaveCount(3)

  await activeRow(page)
    .getByRole('button', { name: /^Delete / })
    .click()
  await activeRow(page).getByRole('button', { name: 'Delete for good' }).click()
  await expect(page.getByTestId('thread-row')).toHaveCount(2)
  await expect(page.getByTestId('chat-title')).not.toContainText('(fork at #8)')

  await page
    .locator(`[data-testid="thread-row"][data-thread-id="${parent}"]`)
    .getByRole('button', { name: /^What is 6 \* 7\? \d+ entries/ })
    .click()
  expect(threadIdOf(page)).toBe(parent)
  await expect(page.getByTestId('entry-count')).toHaveText('10')
  expect(errors).toEqual([])
})
