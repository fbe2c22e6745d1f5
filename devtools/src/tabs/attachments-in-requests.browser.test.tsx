import { createSessionSource } from '@threadlens/client'
import type { EntryInput } from '@threadlens/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { eventually, renderPanel, testPolicy, type Harness } from '../testing/panel-harness'

const imageId = `sha256-${'ab'.repeat(32)}`
const fileId = `sha256-${'cd'.repeat(32)}`

/** A user message with an image and a PDF held by the store, then answered calls. */
function withAttachments(): EntryInput[] {
  return [
    {
      kind: 'message',
      payload: {
        role: 'user',
        content: 'what is in this picture?\nand this file?',
        parts: [
          { type: 'text', text: 'what is in this picture?' },
          { type: 'image', source: { type: 'attachment', id: imageId, mediaType: 'image/png', bytes: 2_048 }, width: 64, height: 48 },
          { type: 'text', text: 'and this file?' },
          { type: 'file', source: { type: 'attachment', id: fileId, mediaType: 'application/pdf', bytes: 9_000 }, filename: 'report.pdf' },
        ],
      },
      refs: { requestId: 'r0' },
    },
    { kind: 'message', payload: { role: 'assistant', content: 'A harbour at dusk.' }, refs: { requestId: 'r0', callId: 'c0' } },
    { kind: 'message', payload: { role: 'user', content: 'and the boats?' }, refs: { requestId: 'r1' } },
    { kind: 'message', payload: { role: 'assistant', content: 'Two sailboats.' }, refs: { requestId: 'r1', callId: 'c1' } },
  ]
}

let panel: Harness | undefined
afterEach(() => {
  panel?.unmount()
  panel = undefined
  vi.restoreAllMocks()
})

describe('requests with images and files held by the store', () => {
  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'the Calls tab shows calls with an image (%s): no error, the image left out in words',
    async (model) => {
      const errors = vi.spyOn(console, 'error')
      const policy = testPolicy({ name: 'recorded' })
      const session = createSessionSource({
        status: 'idle',
        threadId: 'unused',
        calls: [
          { callId: 'c0', policy, model, usage: { inputTokens: 900, outputTokens: 9 } },
          { callId: 'c1', policy, model, usage: { inputTokens: 950, outputTokens: 5, cachedInputTokens: 800 } },
        ],
      })
      panel = await renderPanel({ entries: withAttachments(), tab: 'calls', policy, session })
      const detail = await panel.find('call-detail')
      expect(detail.dataset['callId']).toBe('c1')
      await panel.find('cache-predictions')
      expect(panel.query('[data-testid="threadlens-error"]')).toBeNull()
      expect((await panel.find('attachments-left-out')).textContent).toBe(
        '1 image and 1 file are shown without their bytes: the app sends them from its attachment store.',
      )
      expect(errors).not.toHaveBeenCalled()
    },
  )

  it('the Projection tab formats the request for OpenAI and Anthropic with the bytes left out, and says so', async () => {
    const errors = vi.spyOn(console, 'error')
    panel = await renderPanel({ entries: withAttachments(), tab: 'projection' })
    for (const format of ['openai', 'anthropic']) {
      await panel.click(`format-${format}`)
      const request = await eventually(() => {
        const element = panel?.query(`[data-testid="request-json"][data-provider="${format}"]`)
        if (element == null) throw new Error('not yet')
        return element
      })
      expect(request.textContent).toContain(`bytes of ${imageId} left out`)
      expect(request.querySelector('[data-testid="attachments-left-out"]')?.textContent).toContain('1 image and 1 file are shown without their bytes')
    }
    expect(panel.query('[data-testid="threadlens-error"]')).toBeNull()
    expect(errors).not.toHaveBeenCalled()
  })
})
