import { createThread, createTokenCounter, definePolicy, project, toAnthropicMessages, toOpenAIChat } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { leftOutNote, readableRequest, storeHeldAttachments, viewFormatOptions } from './request-format'

const image = `sha256-${'1'.repeat(64)}`
const notes = `sha256-${'2'.repeat(64)}`

async function projected() {
  const thread = createThread({ id: 't' })
  thread.append({
    kind: 'message',
    payload: {
      role: 'user',
      content: 'look\nread',
      parts: [
        { type: 'text', text: 'look' },
        { type: 'image', source: { type: 'attachment', id: image, mediaType: 'image/png', bytes: 10 } },
        { type: 'text', text: 'read' },
        { type: 'file', source: { type: 'attachment', id: notes, mediaType: 'text/markdown', bytes: 10 }, filename: 'notes.md' },
      ],
    },
  })
  return project({ thread, policy: definePolicy({ tokenizer: 'heuristic' }), counter: await createTokenCounter('heuristic') })
}

describe('request views without attachment bytes', () => {
  it('formats for both providers, with a sentence where the bytes would be (a text file reads it as its text)', async () => {
    const result = await projected()
    const attachments = storeHeldAttachments(result)
    expect(attachments).toEqual({ ids: [image, notes], images: 1, files: 1 })
    const openAI = readableRequest(JSON.stringify(toOpenAIChat(result, viewFormatOptions)), attachments.ids)
    expect(openAI).toContain(`"url":"data:image/png;base64,[bytes of ${image} left out]"`)
    expect(openAI).toContain(`notes.md:\\n[bytes of ${notes} left out]`)
    const anthropic = readableRequest(JSON.stringify(toAnthropicMessages(result, viewFormatOptions)), attachments.ids)
    expect(anthropic).toContain(`"data":"[bytes of ${image} left out]"`)
    expect(anthropic).toContain(`[bytes of ${notes} left out]`)
  })

  it('says what is left out in a sentence', () => {
    expect(leftOutNote({ images: 0, files: 0 })).toBeUndefined()
    expect(leftOutNote({ images: 1, files: 0 })).toBe('1 image is shown without its bytes: the app sends it from its attachment store.')
    expect(leftOutNote({ images: 2, files: 1 })).toBe(
      '2 images and 1 file are shown without their bytes: the app sends them from its attachment store.',
    )
  })
})
