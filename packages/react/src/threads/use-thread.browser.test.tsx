import { openThreadlensStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { createThreadlensClient } from '@threadlens/client'
import { eventually, renderWithClient, settle } from '../testing/render'
import { useThread } from './use-thread'

let databases = 0

describe('useThread (real IndexedDB)', () => {
  it('loads a stored thread and follows committed appends, with one snapshot object per version', async () => {
    const stores = await openThreadlensStores({ name: `react-use-thread-${++databases}-${Date.now()}` })
    const record = await stores.threads.create({ title: 'live' })
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'hello' } })
    const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory })
    const seen: unknown[] = []

    function Count() {
      const snapshot = useThread(record.id)
      seen.push(snapshot)
      return <output>{snapshot.status === 'ready' ? snapshot.thread?.entries.length : snapshot.status}</output>
    }

    const view = renderWithClient(client, <Count />)
    const output = view.output
    await eventually(() => expect(output.textContent).toBe('1'))
    // The same snapshot until a commit changes it.
    expect(client.thread(record.id).getState()).toBe(client.thread(record.id).getState())

    await stores.threads.appendMany(record.id, [
      { kind: 'message', payload: { role: 'assistant', content: 'hi' } },
      { kind: 'message', payload: { role: 'user', content: 'again' } },
    ])
    await eventually(() => expect(output.textContent).toBe('3'))
    const last = client.thread(record.id).getState()
    expect(last.version).toBe(3)
    expect(last.thread?.entries.map((entry) => entry.seq)).toEqual([0, 1, 2])

    view.unmount()
    expect(client.thread(record.id).subscriberCount).toBe(0)
    stores.db?.close()
  })

  it('re-renders a selector only when its value changes', async () => {
    const stores = await openThreadlensStores({ name: `react-use-thread-${++databases}-${Date.now()}` })
    const record = await stores.threads.create()
    const client = createThreadlensClient({ threads: stores.threads })
    let renders = 0

    function Users() {
      renders++
      const users = useThread(record.id, (snapshot) => snapshot.thread?.index.userSeqs.length ?? -1)
      return <output>{users}</output>
    }

    const view = renderWithClient(client, <Users />)
    const output = view.output
    await eventually(() => expect(output.textContent).toBe('0'))
    await settle()
    const before = renders
    // Assistant messages do not change the number of user turns: no render.
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'assistant', content: 'a' } })
    await eventually(() => expect(client.thread(record.id).getState().version).toBe(1))
    await settle()
    expect(renders).toBe(before)
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'u' } })
    await eventually(() => expect(output.textContent).toBe('1'))
    expect(renders).toBe(before + 1)
    view.unmount()
    stores.db?.close()
  })
})
