import { createMemoryBackedStores, type ThreadStore } from '@threadlens/store'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createThreadlensClient } from '../threadlens-client'
import type { LiveThread } from './live-thread'

const seed = 20261129
const gcTime = 1_000

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A thread store whose loads never finish: the cache's own behaviour, without a backend. */
const idleStore = { load: () => new Promise<never>(() => undefined), subscribe: () => () => undefined } as unknown as ThreadStore

type Step =
  | { readonly kind: 'subscribe'; readonly id: number }
  | { readonly kind: 'unsubscribe'; readonly pick: number }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'peek'; readonly id: number }

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('subscribe' as const), id: fc.nat(4) }),
  fc.record({ kind: fc.constant('unsubscribe' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.oneof(fc.nat(gcTime * 2), fc.constantFrom(gcTime - 1, gcTime)) }),
  fc.record({ kind: fc.constant('peek' as const), id: fc.nat(4) }),
)

/** What the client should hold for one id: the view, its subscribers, and since when no one subscribes. */
interface Held {
  readonly view: LiveThread
  subscribers: number
  idleSince: number
}

describe('ThreadlensClient lets go of views no one subscribes to (gcTime)', () => {
  it(`holds a view while subscribed and for gcTime after, and a new one after that, over random browsing (seed ${seed})`, () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 60 }), (steps) => {
        vi.setSystemTime(0)
        const client = createThreadlensClient({ threads: idleStore, gcTime })
        const model = new Map<number, Held>()
        const subscriptions: { readonly id: number; readonly stop: () => void }[] = []
        const alive = (held: Held): boolean => held.subscribers > 0 || Date.now() - held.idleSince < gcTime
        /** The client's view for `id`, checked against the model: the same object while held, a new one after. */
        const viewOf = (id: number): Held => {
          const expected = model.get(id)
          const view = client.thread(`t${id}`)
          if (expected !== undefined && alive(expected)) {
            expect(view).toBe(expected.view)
            return expected
          }
          if (expected !== undefined) expect(view).not.toBe(expected.view)
          const made: Held = { view, subscribers: 0, idleSince: Date.now() }
          model.set(id, made)
          return made
        }
        for (const step of steps) {
          if (step.kind === 'wait') vi.advanceTimersByTime(step.ms)
          else if (step.kind === 'peek') viewOf(step.id)
          else if (step.kind === 'subscribe') {
            const held = viewOf(step.id)
            held.subscribers++
            subscriptions.push({ id: step.id, stop: held.view.subscribe(() => undefined) })
          } else if (subscriptions.length > 0) {
            const [subscription] = subscriptions.splice(step.pick % subscriptions.length, 1)
            if (subscription === undefined) continue
            subscription.stop()
            const held = model.get(subscription.id)
            if (held !== undefined && --held.subscribers === 0) held.idleSince = Date.now()
          }
        }
        for (const id of [0, 1, 2, 3, 4]) viewOf(id)
        for (const subscription of subscriptions) subscription.stop()
      }),
      { numRuns: 300, seed },
    )
  })

  it('after browsing 1,000 stored threads it holds none of them, and one reopened within gcTime resumes without loading again', async () => {
    const stores = createMemoryBackedStores()
    const ids = Array.from({ length: 1_000 }, (_, index) => `thread-${index}`)
    for (const id of ids) {
      await stores.threads.create({ id })
      await stores.threads.append(id, { kind: 'message', payload: { role: 'user', content: `hello ${id}` } })
    }
    const load = vi.spyOn(stores.threads, 'load')
    const client = createThreadlensClient({ threads: stores.threads, gcTime })
    const opened = new Map<string, LiveThread>()
    for (const id of ids) {
      const view = client.thread(id)
      let stop = () => undefined as void
      await new Promise<void>((resolve) => {
        stop = view.subscribe((state) => state.status === 'ready' && resolve())
      })
      expect(view.getState().thread?.entries).toHaveLength(1)
      stop()
      opened.set(id, view)
    }
    expect(load).toHaveBeenCalledTimes(1_000)
    // The last one, reopened before gcTime: the same view, caught up, not reloaded.
    vi.advanceTimersByTime(gcTime - 1)
    const last = client.thread('thread-999')
    expect(last).toBe(opened.get('thread-999'))
    const stop = last.subscribe(() => undefined)
    expect(last.getState().status).toBe('ready')
    expect(load).toHaveBeenCalledTimes(1_000)
    stop()
    // gcTime later every view is let go: each id gets a new view, which loads when subscribed.
    vi.advanceTimersByTime(gcTime)
    for (const id of ids) expect(client.thread(id)).not.toBe(opened.get(id))
  })

  it('keeps every view with gcTime Infinity, and refuses a gcTime that is not a duration', () => {
    const client = createThreadlensClient({ threads: idleStore, gcTime: Infinity })
    const view = client.thread('kept')
    view.subscribe(() => undefined)()
    vi.advanceTimersByTime(365 * 24 * 3_600_000)
    expect(client.thread('kept')).toBe(view)
    expect(client.memoryOf('m')).toBe(client.memoryOf('m'))
    for (const gcTime of [-1, Number.NaN]) expect(() => createThreadlensClient({ threads: idleStore, gcTime })).toThrow(RangeError)
  })

  it('lets go of memory and call-attempt views the same way', () => {
    const client = createThreadlensClient({ threads: idleStore, gcTime })
    const memory = client.memoryOf('agent')
    const attempts = client.callAttempts('t')
    vi.advanceTimersByTime(gcTime - 1)
    expect(client.memoryOf('agent')).toBe(memory)
    expect(client.callAttempts('t')).toBe(attempts)
    vi.advanceTimersByTime(1)
    expect(client.memoryOf('agent')).not.toBe(memory)
    expect(client.callAttempts('t')).not.toBe(attempts)
  })
})
