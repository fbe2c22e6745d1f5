import { createTokenCounter, toAnthropicMessages, toOpenAIChat, type TokenCounter } from '@threadlens/core'
import { AttachmentUnavailableError } from '@threadlens/core/parts'
import { createMemoryBackedStores } from '@threadlens/store'
import { createMemoryAttachmentStore, imagePart } from '@threadlens/store/attachments'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../model/model-client'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

// A model that formats each request for both providers, as the real clients do, and answers "ok".
function formattingModel(): ModelClient & { readonly sent: unknown[] } {
  const sent: unknown[] = []
  return {
    id: 'formatting',
    provider: 'test',
    sent,
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      const options = request.attachmentData === undefined ? {} : { attachmentData: request.attachmentData }
      sent.push({ openAI: toOpenAIChat(request.projection, options), anthropic: toAnthropicMessages(request.projection, options) })
      yield { type: 'text-delta', text: 'ok' }
      yield { type: 'finish', stopReason: 'stop', rawStopReason: 'stop' }
    },
  }
}

describe('sending images and files', () => {
  it('stores the message as text plus parts, and the model gets the bytes of store-held images', async () => {
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const attachments = createMemoryAttachmentStore()
    const { id } = await threads.create()
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3])
    const info = await attachments.put(id, new Blob([bytes], { type: 'image/png' }), { width: 640, height: 480 })
    const model = formattingModel()
    const session = createSession({ threads, threadId: id, model, counter, attachments })
    for await (const _event of session.send('What is this?', { parts: [imagePart(info)] })) void _event
    const [user] = (await threads.load(id)).entries
    expect(user?.payload).toEqual({ role: 'user', content: 'What is this?', parts: [{ type: 'text', text: 'What is this?' }, imagePart(info)] })
    const base64 = btoa(String.fromCharCode(...bytes))
    expect(model.sent[0]).toMatchObject({
      openAI: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
          ],
        },
      ],
      anthropic: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } },
            ],
          },
        ],
      },
    })
  })

  it('fails the request with a clear error when the session has no attachment store', async () => {
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const { id } = await threads.create()
    const info = await createMemoryAttachmentStore().put(id, new Blob([new Uint8Array([1])], { type: 'image/png' }))
    const session = createSession({ threads, threadId: id, model: formattingModel(), counter })
    const events: SessionEvent[] = []
    for await (const event of session.send('Look', { parts: [imagePart(info)] })) events.push(event)
    const failure = events.find((event) => event.type === 'error')
    expect(failure).toMatchObject({ type: 'error', error: expect.any(AttachmentUnavailableError) })
    expect(String((failure as { error: Error }).error.message)).toContain('attachmentData')
  })
})
