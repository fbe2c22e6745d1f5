import { expect, test, type Page } from '@playwright/test'
import { assistantMessages, collectErrors, devtools, openChat, screenshot, send, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

function toolCard(page: Page, name: string) {
  return page.locator(`[data-testid="tool-card"][data-tool="${name}"]`).last()
}

test('tool calls run in the page, show as cards with their results, and appear in the devtools timeline', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)

  await send(page, 'What is 17% of 2,340?')
  const calculator = toolCard(page, 'calculator')
  await expect(calculator).toHaveAttribute('data-status', 'ok')
  await expect(calculator.getByTestId('tool-output')).toBeHidden() // compact until opened
  await calculator.locator('summary').click()
  await expect(calculator.getByTestId('tool-output')).toHaveText('{"expression":"(17 / 100 * 2340)","result":397.8}')
  await expect(assistantMessages(page).last()).toHaveText(/\(17 \/ 100 \* 2340\) = 397\.8\./)

  await send(page, 'convert 5 km to miles')
  await expect(toolCard(page, 'convert_units')).toHaveAttribute('data-status', 'ok')
  await expect(assistantMessages(page).last()).toContainText('5 km is 3.10686 mi.')

  // A bad expression is a tool error, reported, never evaluated as code.
  await send(page, 'compute 2 ** 3')
  await expect(toolCard(page, 'calculator')).toHaveAttribute('data-status', 'error')
  await expect(assistantMessages(page).last()).toContainText('The calculator tool failed: unexpected "*" at position 4.')

  // save_note writes to the memory's world space: the sidebar and the devtools show it.
  await send(page, 'Remember that my flight leaves at 9:40')
  await expect(toolCard(page, 'save_note')).toHaveAttribute('data-status', 'ok')
  await expect(page.getByTestId('memory-note')).toHaveText('flight-leaves-9-40 my flight leaves at 9:40')
  await send(page, 'what do you remember?')
  await expect(assistantMessages(page).last()).toHaveText(/From my memory segment: flight-leaves-9-40: my flight leaves at 9:40\./)

  // read_document returns 3,000+ lines: cut before it enters the thread, with the full size recorded.
  await send(page, 'read the quarterly report')
  const document = toolCard(page, 'read_document')
  await expect(document).toHaveAttribute('data-status', 'ok')
  await expect(document).toContainText('cut from 3,011 lines')
  await expect(assistantMessages(page).last()).toContainText('the output was cut before it entered the thread')

  const entries = await storedEntries(page, threadId)
  const calls = entries.filter((entry) => entry.kind === 'tool_call')
  const results = entries.filter((entry) => entry.kind === 'tool_result')
  expect(calls.map((entry) => (entry.payload as { name: string }).name)).toEqual([
    'calculator',
    'convert_units',
    'calculator',
    'save_note',
    'read_document',
  ])
  expect(results).toHaveLength(calls.length)

  // The devtools timeline lists every call and result, with its fate in the next projection.
  const panel = devtools(page)
  await panel.getByTestId('tab-timeline').click()
  await panel.getByTestId('timeline-search').fill('tool')
  await panel.getByTestId('filter-message').click()
  await panel.getByTestId('filter-summary').click()
  await panel.getByTestId('filter-context_op').click()
  await panel.getByTestId('timeline-search').fill('')
  await expect(panel.getByTestId('timeline-count')).toContainText(`${calls.length + results.length} of ${entries.length} entries`)
  for (const entry of [...calls, ...results]) {
    await expect(panel.locator(`[data-testid="timeline-row"][data-seq="${entry.seq}"]`)).toContainText(entry.kind)
  }
  const lastResult = results.at(-1) as (typeof results)[number]
  await panel.locator(`[data-testid="timeline-row"][data-seq="${lastResult.seq}"]`).click()
  await expect(panel.getByTestId('entry-detail')).toContainText('read_document')
  await expect(panel.getByTestId('entry-detail')).toContainText('tool_result')
  await document.locator('summary').click()
  await screenshot(page, testInfo, 'chat-tool-calls')

  await panel.getByTestId('tab-memory').click()
  await expect(panel.locator('[data-testid="memory-space"][data-name="world"]')).toContainText('my flight leaves at 9:40')
  expect(errors).toEqual([])
})
