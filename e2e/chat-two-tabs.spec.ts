import { expect, test } from '@playwright/test'
import { assistantMessages, collectErrors, composer, openChat, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

test('two tabs see the same chat live; concurrent sends wait for each other and keep seq gapless', async ({ context }) => {
  const first = await context.newPage()
  const second = await context.newPage()
  const errors = [...collectErrors(first), ...collectErrors(second)]
  // Tab A streams slowly enough that tab B's send lands while A still drives the thread.
  const threadId = await openChat(first, '/?delay=25')
  await openChat(second, `/?delay=0#thread=${threadId}`)
  await expect(second.getByTestId('chat-title')).toHaveText('New chat')

  // What one tab writes, the other shows, and the thread list follows in both.
  await send(first, 'this is tab A speaking')
  await expect(assistantMessages(second).last()).toContainText('You said: "this is tab A speaking"')
  await expect(second.getByTestId('entry-count')).toHaveText('2')
  await expect(second.getByTestId('chat-title')).toHaveText('this is tab A speaking')

  // A drives a long request; B's send meets the thread lock, says so, waits, then goes out.
  await composer(first).fill('read the quarterly report')
  await composer(first).press('Enter')
  await expect(first.getByTestId('streaming-reply')).toBeVisible()
  await composer(second).fill('what is 2 + 2')
  await composer(second).press('Enter')
  await expect(second.getByTestId('busy-notice')).toContainText('another tab is driving this chat')
  await expect(second.getByTestId('pending-message')).toContainText('what is 2 + 2')
  // B follows A's request live while it waits.
  await expect(second.locator('[data-testid="tool-card"][data-tool="read_document"]')).toBeVisible()
  await expect(second.getByTestId('busy-notice')).toBeHidden({ timeout: 30_000 })
  await expect(second.getByTestId('chat-view')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 })
  await expect(first.getByTestId('chat-view')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 })
  await expect(assistantMessages(second).last()).toHaveText(/2 \+ 2 = 4\./)
  await expect(assistantMessages(first).last()).toHaveText(/2 \+ 2 = 4\./)

  // Both at once, from both tabs: one runs, the other waits its turn.
  await Promise.all([send(first, 'what is 10 * 10'), send(second, 'what is 3 * 3')])

  const entries = await storedEntries(first, threadId)
  expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, position) => position))
  const users = entries
    .filter((entry) => entry.kind === 'message' && (entry.payload as { role: string }).role === 'user')
    .map((entry) => (entry.payload as { content: string }).content)
  expect(users.slice(0, 3)).toEqual(['this is tab A speaking', 'read the quarterly report', 'what is 2 + 2'])
  expect([...users.slice(3)].sort()).toEqual(['what is 10 * 10', 'what is 3 * 3'])
  // Every request is whole: its tool call answered and followed by the assistant's answer.
  const calls = entries.filter((entry) => entry.kind === 'tool_call').length
  expect(entries.filter((entry) => entry.kind === 'tool_result')).toHaveLength(calls)
  await expect(first.getByTestId('entry-count')).toHaveText(String(entries.length))
  await expect(second.getByTestId('entry-count')).toHaveText(String(entries.length))
  expect(await storedEntries(second, threadId)).toEqual(entries)

  // The thread list follows too: a chat made in one tab appears in the other.
  await first.getByRole('button', { name: 'New chat' }).click()
  await expect(first.getByTestId('thread-row')).toHaveCount(2)
  await expect(second.getByTestId('thread-row')).toHaveCount(2)
  expect(errors).toEqual([])
})
