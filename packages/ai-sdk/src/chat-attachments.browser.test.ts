import { createTokenCounter, definePolicy } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import { readUIMessageStream, type UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { createProjectedChatTransport, type ProjectedCall } from './projected-chat-transport'
import { scriptedChatModel } from './testing/scripted-chat-model'
import { submit } from './testing/chat-requests'

/** A real PNG from a canvas, as a data: URL (what useChat's convertFileListToFileUIParts gives for an image). */
async function canvasPng(): Promise<string> {
  const canvas = document.createElement('canvas')
  canvas.width = 64
  canvas.height = 32
  const context = canvas.getContext('2d') as CanvasRenderingContext2D
  context.fillStyle = '#3a6'
  context.fillRect(0, 0, 64, 32)
  return canvas.toDataURL('image/png')
}

describe('a chat keeps its files in the IndexedDB attachment store, in Chromium', () => {
  it('stores the bytes once outside the entries, sends them to the model, and gives the same data: URL after a reopen', async () => {
    const name = `ai-sdk-files-${crypto.randomUUID()}`
    const png = await canvasPng()
    const stores = await openThreadlensStores({ name })
    expect(stores.persistent).toBe(true)
    const chat = createChatPersistence({ store: stores.threads, chatId: 'pictures', attachments: stores.attachments })
    const model = scriptedChatModel()
    const calls: ProjectedCall[] = []
    const transport = createProjectedChatTransport({
      persistence: chat,
      model,
      policy: definePolicy({}),
      counter: await createTokenCounter('heuristic'),
      onCall: (call) => calls.push(call),
    })
    const ask: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'file', mediaType: 'image/png', url: png, filename: 'green.png' },
        { type: 'text', text: 'What colour?' },
      ],
    }
    const stream = await submit(transport, 'pictures', [ask])
    let reply: UIMessage | undefined
    for await (const message of readUIMessageStream({ stream })) reply = message
    await expect.poll(async () => (await stores.threads.load('pictures')).entries.length).toBe(2)

    const base64 = png.slice('data:image/png;base64,'.length)
    expect(JSON.stringify((await stores.threads.load('pictures')).entries)).not.toContain(base64)
    const [info] = await stores.attachments.listForThread('pictures')
    expect(info?.mediaType).toBe('image/png')
    expect(calls[0]?.projection.meta.tokens.attachments).toBeGreaterThan(0)
    const sent = model.doStreamCalls[0]?.prompt.at(-1)
    const file = sent?.role === 'user' ? sent.content.find((part) => part.type === 'file') : undefined
    expect(file).toMatchObject({ mediaType: 'image/png', filename: 'green.png' })

    // a reload: a new connection, a new chat object
    stores.db?.close()
    const reopened = await openThreadlensStores({ name })
    const loaded = await createChatPersistence({ store: reopened.threads, chatId: 'pictures', attachments: reopened.attachments }).load()
    expect(loaded).toEqual(JSON.parse(JSON.stringify([ask, reply])))
    const blob = await reopened.attachments.get(info?.id as string)
    expect(blob?.size).toBe(info?.bytes)
    reopened.db?.close()
  })
})
