import { writeFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { assistantMessages, collectErrors, devtools, openChat, send } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

const inMessage = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
const inDocument = '<svg onload="window.__xss=3"><circle r=1 /></svg>'
const inNote = '<a href="javascript:window.__xss=4">click me</a>'
const inImport = '<iframe src="javascript:window.__xss=5"></iframe><b onmouseover="window.__xss=6">bold</b>'

/** Nothing hostile became markup: no active elements, no javascript: links, no script ran. */
async function expectInert(page: Page): Promise<void> {
  const found = await page.evaluate(() => {
    const roots: (Element | ShadowRoot)[] = [document.getElementById('root') as Element]
    for (const host of document.querySelectorAll('[data-threadlens-devtools]')) if (host.shadowRoot !== null) roots.push(host.shadowRoot)
    const active: string[] = []
    let links = 0
    for (const root of roots) {
      for (const element of root.querySelectorAll('img, script, svg, iframe, object, embed, b, circle')) active.push(element.outerHTML.slice(0, 120))
      links += root.querySelectorAll('a[href^="javascript:"]').length
    }
    return { active, links, xss: (window as unknown as { __xss?: unknown }).__xss ?? null }
  })
  expect(found).toEqual({ active: [], links: 0, xss: null })
}

test('hostile markup in messages, tool output, memory and imports stays inert text everywhere', async ({ page }, testInfo) => {
  const errors = collectErrors(page)
  await openChat(page)

  await send(page, inMessage)
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]').first()).toContainText(inMessage)
  await expect(assistantMessages(page).last()).toContainText('You said: "<img src=x onerror=')
  // The chat is titled after its first message: as text in the header and the sidebar.
  await expect(page.getByTestId('chat-title')).toHaveText(inMessage.slice(0, 48))
  await expect(page.getByTestId('thread-title')).toHaveText(inMessage.slice(0, 48))

  await send(page, `read the ${inDocument} report`)
  const card = page.locator('[data-testid="tool-card"][data-tool="read_document"]')
  await card.locator('summary').click()
  await expect(card.getByTestId('tool-output')).toContainText(`# ${inDocument} report`)
  await expect(assistantMessages(page).last()).toContainText(inDocument)

  await send(page, `remember that ${inNote}`)
  await expect(page.getByTestId('memory-note')).toContainText(inNote)

  const path = testInfo.outputPath('hostile.json')
  await writeFile(
    path,
    JSON.stringify([
      { role: 'user', content: inImport },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fetch_page', arguments: JSON.stringify({ url: inImport }) } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: inImport },
      { role: 'assistant', content: inImport },
    ]),
  )
  await page.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)').setInputFiles(path)
  await expect(page.getByTestId('chat-title')).toHaveText('hostile')
  await expect(assistantMessages(page).last()).toContainText(inImport)
  const imported = page.locator('[data-testid="tool-card"][data-tool="fetch_page"]')
  await imported.locator('summary').click()
  await expect(imported.getByTestId('tool-output')).toHaveText(inImport)

  // The devtools show the same text, as text, in every tab.
  const panel = devtools(page)
  await expect(panel.getByTestId('projected-messages')).toContainText(inImport)
  for (const tab of ['timeline', 'views', 'calls', 'memory', 'projection']) {
    await panel.getByTestId(`tab-${tab}`).click()
    await expectInert(page)
  }
  await panel.getByTestId('tab-memory').click()
  await expect(panel.locator('[data-testid="memory-space"][data-name="world"]')).toContainText('javascript:window.__xss=4')
  await expectInert(page)
  expect(errors).toEqual([])
})
