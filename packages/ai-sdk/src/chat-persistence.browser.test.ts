import { createTokenCounter, definePolicy } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import type { PrepareSendMessagesRequest, UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { createChatPersistence } from './chat-persistence'
import { projectedSendMessagesRequest, type ProjectedRequestBody } from './projected-request'

const user = (id: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text: id }] })

describe('chat persistence across tabs, in Chromium', () => {
  it('two connections saving at once (as two tabs do) lose nothing, duplicate nothing and never branch', async () => {
    const name = `ai-sdk-tabs-${crypto.randomUUID()}`
    // Two database connections in one page behave as two tabs: same IndexedDB, same Web Locks.
    const [first, second] = await Promise.all([openThreadlensStores({ name }), openThreadlensStores({ name })])
    const tabA = createChatPersistence({ store: first.threads, chatId: 'shared' })
    const tabB = createChatPersistence({ store: second.threads, chatId: 'shared' })
    await Promise.all([tabA.load(), tabB.load()])
    let listA: UIMessage[] = []
    let listB: UIMessage[] = []
    const rounds = 15
    for (let round = 0; round < rounds; round += 1) {
      listA = [...listA, user(`a${round}`)]
      listB = [...listB, user(`b${round}`)]
      // each save twice, racing the other tab: idempotent and serialized by the chat's lock
      await Promise.all([tabA.save(listA), tabB.save(listB), tabA.save(listA), tabB.save(listB)])
    }
    const entries = (await first.threads.load('shared')).entries
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index))
    const ids = (await tabA.load()).map((message) => message.id)
    expect(ids).toHaveLength(rounds * 2)
    expect(new Set(ids).size).toBe(rounds * 2)
    expect(ids.filter((id) => id.startsWith('a'))).toEqual(listA.map((message) => message.id))
    expect(ids.filter((id) => id.startsWith('b'))).toEqual(listB.map((message) => message.id))
    expect((await first.threads.list()).map((record) => record.id)).toEqual(['shared'])
  })

  it("keeps a sent call's record in the tab's sessionStorage until its reply is saved, so a reloaded page that resumes the reply stores it", async () => {
    const stores = await openThreadlensStores({ name: `ai-sdk-resume-${crypto.randomUUID()}` })
    const sending = createChatPersistence({ store: stores.threads, chatId: 'resume' })
    await sending.load()
    const prepare = projectedSendMessagesRequest({ persistence: sending, policy: definePolicy({}), counter: await createTokenCounter('heuristic') })
    const ask = user('ask')
    const prepared = await prepare({
      id: 'resume',
      messages: [ask],
      body: {},
      trigger: 'submit-message',
      messageId: undefined,
    } as unknown as Parameters<PrepareSendMessagesRequest<UIMessage>>[0])
    const { responseMessageId } = prepared.body as ProjectedRequestBody
    expect(sessionStorage.getItem('threadlens-ai-sdk:resume:pending-call')).toContain(responseMessageId)
    // the reloaded page: a new chat object; the resumed reply arrives and is saved
    const reloaded = createChatPersistence({ store: stores.threads, chatId: 'resume' })
    const reply: UIMessage = {
      id: responseMessageId,
      role: 'assistant',
      parts: [{ type: 'step-start' }, { type: 'text', text: 'resumed', state: 'done' }],
    }
    await reloaded.save([...(await reloaded.load()), reply])
    const entries = (await stores.threads.load('resume')).entries
    expect(entries[1]?.meta?.call).toMatchObject({ model: 'server', counter: 'heuristic' })
    expect(sessionStorage.getItem('threadlens-ai-sdk:resume:pending-call')).toBeNull()
    stores.db?.close()
  })
})
