import type { SessionEvent } from './session-events'
import type { SendOptions } from './session-options'
import { acquireThreadLock, type ThreadLockResult } from './thread-lock'

/**
 * Takes the thread's lock for one request. When another tab holds it and the send asked to wait
 * (`waitForThread`), says so with a `lock-wait` event and waits; otherwise answers `busy` at once.
 */
export async function* lockForRequest(
  threadId: string,
  requestId: string,
  signal: AbortSignal,
  waitForThread: SendOptions['waitForThread'],
): AsyncGenerator<SessionEvent, ThreadLockResult> {
  const wait = waitForThread === true ? {} : waitForThread === false ? undefined : waitForThread
  const lock = await acquireThreadLock(threadId, { signal })
  if (lock.status !== 'busy' || wait === undefined) return lock
  yield { type: 'lock-wait', requestId, threadId }
  return await acquireThreadLock(threadId, { wait, signal })
}
