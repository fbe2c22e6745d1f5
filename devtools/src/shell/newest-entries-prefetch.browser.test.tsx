import { createTokenCounter, type EntryInput } from '@threadlens/core'
import { createThreadlensClient } from '@threadlens/client'
import { createMemoryBackedStores, type ThreadStore } from '@threadlens/store'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { describe, expect, it } from 'vitest'
import { eventually, testPolicy } from '../testing/panel-harness'
import { ThreadlensDevtools } from './devtools'

describe('the first read of a cold open', () => {
  it('starts when the panel opens, before its chunk is in, and the panel uses it instead of reading again', async () => {
    await createTokenCounter('heuristic')
    const stores = createMemoryBackedStores()
    const { id } = await stores.threads.create()
    const inputs: EntryInput[] = Array.from({ length: 200 }, (_, turn) => ({ kind: 'message', payload: { role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn} ${'word '.repeat(40)}` } }))
    await stores.threads.appendMany(id, inputs)
    const loads: { windowed: boolean; panelShown: boolean }[] = []
    let shadow: ShadowRoot | undefined
    const threads = new Proxy(stores.threads, {
      get(target, key, receiver) {
        if (key !== 'load') return Reflect.get(target, key, receiver) as unknown
        const load: ThreadStore['load'] = (threadId, options) => {
          loads.push({ windowed: options?.window !== undefined, panelShown: shadow?.querySelector('[data-testid="threadlens-panel"]') != null })
          return target.load(threadId, options)
        }
        return load
      },
    })
    const client = createThreadlensClient({ threads })
    const container = document.createElement('div')
    document.body.append(container)
    const root = createRoot(container)
    flushSync(() => root.render(<ThreadlensDevtools client={client} threadId={id} policy={testPolicy({ maxInputTokens: 1200, reserveOutputTokens: 100 })} storageKey={`prefetch-${Date.now()}`} />))
    shadow = (container.querySelector('[data-testid="threadlens-devtools"]') as HTMLElement).shadowRoot as ShadowRoot
    ;(shadow.querySelector('[data-testid="devtools-toggle"]') as HTMLElement).click()
    await eventually(() => {
      if (loads.length < 2 || shadow?.querySelector('[data-testid="panel-partial"]') != null) throw new Error('whole thread not shown yet')
    })
    // One windowed read, started before the panel was on screen; then the whole thread.
    expect(loads).toEqual([
      { windowed: true, panelShown: false },
      { windowed: false, panelShown: true },
    ])
    root.unmount()
    container.remove()
  })
})
