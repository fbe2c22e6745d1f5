import { expect, test } from '@playwright/test'
import { assistantMessages, collectErrors, composer, devtools, openChat, storedEntries } from './chat-page'

test.use({ viewport: { width: 1280, height: 720 } })

// A 2×1 PNG: real bytes the browser decodes (its size comes from the decoder, not from us).
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DA8J8BAAf/Af8Bf4mnAAAAAElFTkSuQmCC', 'base64')

test('a pasted screenshot and a picked PDF: thumbnails, stored once, sent with the message, mentioned by the model, shown in the devtools', async ({
  page,
}) => {
  const errors = collectErrors(page)
  const threadId = await openChat(page)

  // Paste an image into the message box, as a screenshot from the clipboard.
  await composer(page).focus()
  await page.evaluate(
    (bytes) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([new Uint8Array(bytes)], 'screenshot.png', { type: 'image/png' }))
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
    },
    [...png],
  )
  // Pick a PDF with the attach button.
  await page
    .getByLabel('Attach images or files')
    .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 tiny report') })

  const tray = page.getByTestId('draft-attachment')
  await expect(tray).toHaveCount(2)
  const thumbnail = tray.first().locator('img')
  await expect(thumbnail).toHaveAttribute('src', /^blob:/)
  await expect(tray.nth(1)).toContainText('report.pdf')

  await composer(page).fill('What are these?')
  await composer(page).press('Enter')
  const reply = assistantMessages(page).last()
  await expect(reply).toContainText('I received an image of 2×1 pixels and a file named “report.pdf”', { timeout: 30_000 })
  await expect(tray).toHaveCount(0)

  // The user's message shows its image from the stored bytes.
  const sent = page.locator('[data-testid="chat-message"][data-role="user"]').last()
  await expect(sent.getByTestId('message-thumbnail')).toHaveAttribute('src', /^blob:/)
  await expect(sent).toContainText('report.pdf')

  // Stored: the message holds references; the bytes are in the attachment store, once.
  const entries = await storedEntries(page, threadId)
  const user = entries.find((entry) => entry.kind === 'message' && (entry.payload as { role: string }).role === 'user') as {
    payload: { content: string; parts: { type: string; source: { type: string; id: string } }[] }
  }
  expect(user.payload.content).toBe('What are these?')
  expect(user.payload.parts.map((part) => [part.type, part.source?.type])).toEqual([
    ['text', undefined],
    ['image', 'attachment'],
    ['file', 'attachment'],
  ])
  const stored = await page.evaluate(async (id) => {
    const handle = (
      window as unknown as {
        __threadlensChat: { stores: { attachments: { listForThread(id: string): Promise<{ id: string; mediaType: string; width?: number }[]> } } }
      }
    ).__threadlensChat
    return handle.stores.attachments.listForThread(id)
  }, threadId)
  expect(stored.map((info) => info.mediaType).sort()).toEqual(['application/pdf', 'image/png'])
  expect(stored.find((info) => info.mediaType === 'image/png')?.width).toBe(2)

  // The devtools' projected message shows the thumbnail and what each attachment costs.
  const row = devtools(page).getByTestId('projected-message').filter({ hasText: 'What are these?' }).first()
  await expect(row.getByTestId('attachment-thumbnail')).toHaveAttribute('src', /^blob:/)
  await expect(row.getByTestId('message-attachment')).toHaveCount(2)
  await expect(row.getByTestId('message-attachment').first()).toContainText('tok')

  // The Calls tab formats the request that carried them: it says the bytes are left out (it once
  // threw for want of them, and the page went blank, again after every reload).
  await devtools(page).getByTestId('tab-calls').click()
  await expect(devtools(page).getByTestId('call-detail')).toBeVisible()
  await expect(devtools(page).getByTestId('attachments-left-out').first()).toHaveText(
    '1 image and 1 file are shown without their bytes: the app sends them from its attachment store.',
  )
  await expect(devtools(page).getByTestId('threadlens-error')).toHaveCount(0)
  await page.reload()
  await expect(composer(page)).toBeVisible()
  await expect(devtools(page).getByTestId('call-detail')).toBeVisible()
  expect(errors).toEqual([])
})
