import { openThreadlensStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { createThreadlensClient } from '@threadlens/client'
import { eventually, renderWithClient, settle } from '../testing/render'
import { useMemory } from './use-memory'

describe('useMemory (real IndexedDB)', () => {
  it('shows spaces and revs, live, and a selector on one space ignores writes to another', async () => {
    const stores = await openThreadlensStores({ name: `react-use-memory-${Date.now()}` })
    const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory })
    let taskRenders = 0
    function Rev() {
      const rev = useMemory('planner', (snapshot) => snapshot.memory?.rev ?? -1)
      return <output data-name="rev">{rev}</output>
    }
    function Tasks() {
      taskRenders++
      const tasks = useMemory('planner', (snapshot) => snapshot.memory?.spaces.tasks)
      return <output data-name="tasks">{tasks === undefined ? 'loading' : tasks.data.map((task) => task.text).join(',')}</output>
    }
    const view = renderWithClient(
      client,
      <>
        <Rev />
        <Tasks />
      </>,
    )
    const rev = view.container.querySelector('[data-name="rev"]') as HTMLElement
    const tasks = view.container.querySelector('[data-name="tasks"]') as HTMLElement
    await eventually(() => expect(rev.textContent).toBe('0'))
    await stores.memory.tasks.add('planner', 'book train')
    await eventually(() => expect(tasks.textContent).toBe('book train'))
    await settle()
    const before = taskRenders
    await stores.memory.world.put('planner', 'city', 'Kyoto')
    await eventually(() => expect(rev.textContent).toBe('2'))
    await settle()
    // The tasks space object is unchanged by a world write: no render.
    expect(taskRenders).toBe(before)
    view.unmount()
    stores.db?.close()
  })

  it('reports an error naming the fix when the client has no memory store', async () => {
    const stores = await openThreadlensStores({ name: `react-use-memory-none-${Date.now()}` })
    const client = createThreadlensClient({ threads: stores.threads })
    function Status() {
      const snapshot = useMemory('planner')
      return <output>{snapshot.status === 'error' ? String((snapshot.error as Error).message) : snapshot.status}</output>
    }
    const view = renderWithClient(client, <Status />)
    await eventually(() => expect(view.container.textContent).toContain('createThreadlensClient({ threads, memory })'))
    view.unmount()
    stores.db?.close()
  })
})
