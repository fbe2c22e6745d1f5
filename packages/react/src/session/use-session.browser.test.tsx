import { describe, expect, it } from 'vitest'
import { flushSync } from 'react-dom'
import { render } from '../testing/render'
import { createSessionSource } from '@threadlens/client'
import { useSession } from './use-session'

describe('useSession', () => {
  it('follows a session source and re-renders only when the selected value changes', () => {
    const session = createSessionSource({ status: 'idle', threadId: 't1' })
    let renders = 0
    function Status() {
      renders++
      const status = useSession(session, (snapshot) => snapshot.status)
      return <output>{status}</output>
    }
    const view = render(<Status />)
    const output = view.container.querySelector('output') as HTMLOutputElement
    expect(output.textContent).toBe('idle')
    const initial = renders
    flushSync(() => session.update({ pendingMessage: 'typing…' }))
    expect(renders).toBe(initial)
    flushSync(() => session.update({ status: 'awaiting-model' }))
    expect(output.textContent).toBe('awaiting-model')
    expect(renders).toBe(initial + 1)
    view.unmount()
  })

  it('works with any object that has subscribe and getSnapshot (a fake agent session)', () => {
    // Only the pair matters: the snapshot comes from elsewhere, as an agent session's would.
    let snapshot = createSessionSource({ status: 'idle', threadId: 't2' }).getSnapshot()
    const listeners = new Set<() => void>()
    const fake = {
      subscribe(listener: () => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      getSnapshot() {
        return snapshot
      },
    }
    function Thread() {
      return <output>{useSession(fake).threadId}</output>
    }
    const view = render(<Thread />)
    expect(view.container.textContent).toBe('t2')
    flushSync(() => {
      snapshot = { ...snapshot, threadId: 't3' }
      for (const listener of listeners) listener()
    })
    expect(view.container.textContent).toBe('t3')
    view.unmount()
    expect(listeners.size).toBe(0)
  })
})
