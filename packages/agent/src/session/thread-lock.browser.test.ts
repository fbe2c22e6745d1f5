import { createTokenCounter } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { describe, expect, it } from 'vitest'
import { scriptedModel } from '../model/scripted-model'
import { createSession } from './create-session'
import { ThreadBusyError } from './errors'
import type { SessionEvent } from './session-events'
import { threadLockName } from './thread-lock'

// Real Chromium Web Locks. "Another tab" holds the thread's lock here the way a driving tab does:
// the same lock name, held until it lets go.
async function setup() {
  const { threads } = createMemoryBackedStores()
  const { id } = await threads.create({ title: 'locked' })
  const session = createSession({
    threads,
    threadId: id,
    model: scriptedModel({ script: ['Done waiting.'] }),
    counter: await createTokenCounter('heuristic'),
  })
  return { threads, id, session }
}

function holdLock(threadId: string): Promise<() => void> {
  return new Promise((granted) => {
    void navigator.locks.request(threadLockName(threadId), () => new Promise<void>((release) => granted(release)))
  })
}

function run(events: AsyncIterable<SessionEvent>): { seen: SessionEvent[]; finished: Promise<void> } {
  const seen: SessionEvent[] = []
  const finished = (async () => {
    for await (const event of events) seen.push(event)
  })()
  return { seen, finished }
}

describe("waiting for another tab's thread lock (real Chromium)", () => {
  it('without waitForThread fails at once with ThreadBusyError and writes nothing', async () => {
    const { threads, id, session } = await setup()
    const release = await holdLock(id)
    const { seen, finished } = run(session.send('hi'))
    await finished
    expect(seen.map((event) => event.type)).toEqual(['error'])
    expect((seen[0] as { error: unknown }).error).toBeInstanceOf(ThreadBusyError)
    expect((await threads.get(id))?.entryCount).toBe(0)
    release()
  })

  it('with waitForThread waits for the lock, says so, and runs once it is free', async () => {
    const { threads, id, session } = await setup()
    const release = await holdLock(id)
    const { seen, finished } = run(session.send('hi', { waitForThread: true }))
    await expect.poll(() => seen.map((event) => event.type)).toEqual(['lock-wait'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Still waiting: nothing was written while the other tab held the thread.
    expect(seen.map((event) => event.type)).toEqual(['lock-wait'])
    expect((await threads.get(id))?.entryCount).toBe(0)
    release()
    await finished
    expect(seen.at(-1)).toMatchObject({ type: 'done', text: 'Done waiting.' })
    expect((await threads.load(id)).entries.map((entry) => entry.kind)).toEqual(['message', 'message'])
  })

  it('gives up after timeoutMs with ThreadBusyError, and an abort stops the wait: nothing written either way', async () => {
    const { threads, id, session } = await setup()
    const release = await holdLock(id)
    const timedOut = run(session.send('hi', { waitForThread: { timeoutMs: 30 } }))
    await timedOut.finished
    expect(timedOut.seen.map((event) => event.type)).toEqual(['lock-wait', 'error'])
    expect((timedOut.seen[1] as { error: unknown }).error).toBeInstanceOf(ThreadBusyError)

    const controller = new AbortController()
    const aborted = run(session.send('hi', { waitForThread: true, signal: controller.signal }))
    await expect.poll(() => aborted.seen.length).toBe(1)
    controller.abort(new Error('user pressed stop'))
    await aborted.finished
    expect(aborted.seen.map((event) => event.type)).toEqual(['lock-wait', 'error'])
    expect((aborted.seen[1] as { error: Error }).error.message).toBe('user pressed stop')

    const stopped = run(session.send('hi', { waitForThread: true }))
    await expect.poll(() => stopped.seen.length).toBe(1)
    session.abort()
    await stopped.finished
    expect(stopped.seen.map((event) => event.type)).toEqual(['lock-wait', 'error'])
    expect((await threads.get(id))?.entryCount).toBe(0)

    // A caller that stops listening while the request waits frees the session too.
    for await (const event of session.send('hi', { waitForThread: true })) {
      expect(event.type).toBe('lock-wait')
      break
    }
    expect((await threads.get(id))?.entryCount).toBe(0)

    // The session is free again and the lock is not leaked: once the other tab lets go, a send runs.
    release()
    const after = run(session.send('hi', { waitForThread: { timeoutMs: 5_000 } }))
    await after.finished
    expect(after.seen.at(-1), String((after.seen.at(-1) as { error?: unknown }).error)).toMatchObject({ type: 'done' })
  })
})
