import { webLocks } from '@threadlens/core/internal'
import type { SessionEvent } from './session-events'

/** The Web Lock a session holds on a thread for one request. */
export function threadLockName(threadId: string): string {
  return `threadlens:thread:${threadId}`
}

/** How `send`/`resume` wait for another tab that drives the thread. */
export interface WaitForThreadOptions {
  /** Give up after this many milliseconds (then `ThreadBusyError`). Default: wait until the other tab is done or the request is aborted. */
  readonly timeoutMs?: number
}

export type ThreadLockResult =
  { readonly status: 'held'; readonly release: () => void } | { readonly status: 'busy' } | { readonly status: 'aborted'; readonly reason: unknown }

/**
 * One tab drives a thread at a time: a Web Lock per thread, held for one request. Without `wait`
 * a lock held elsewhere gives `busy` at once; with it, the request queues for the lock (the Web
 * Locks queue is first come, first served) until it is granted, `timeoutMs` passes (`busy`) or
 * `signal` aborts (`aborted`). Where Web Locks do not exist (Node, old browsers) every request
 * gets the lock.
 */
export async function acquireThreadLock(
  threadId: string,
  options: { readonly wait?: WaitForThreadOptions; readonly signal?: AbortSignal } = {},
): Promise<ThreadLockResult> {
  const locks = webLocks()
  if (locks === undefined) return { status: 'held', release: () => undefined }
  if (options.signal?.aborted === true) return { status: 'aborted', reason: options.signal.reason }
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  if (options.wait === undefined) {
    const acquired = await new Promise<boolean>((resolve) => {
      void locks.request(threadLockName(threadId), { ifAvailable: true }, (lock) => {
        resolve(lock !== null)
        return lock === null ? undefined : held
      })
    })
    return acquired ? { status: 'held', release } : { status: 'busy' }
  }
  // One signal for the lock request: the caller's abort, or the timeout.
  const stop = new AbortController()
  const timedOut = Symbol('timeout')
  const onAbort = (): void => stop.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  const timer = options.wait.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort(timedOut), options.wait.timeoutMs)
  try {
    await new Promise<void>((resolve, reject) => {
      locks
        .request(threadLockName(threadId), { signal: stop.signal }, () => {
          resolve()
          return held
        })
        .catch(reject)
    })
    return { status: 'held', release }
  } catch (error) {
    if (stop.signal.reason === timedOut) return { status: 'busy' }
    if (stop.signal.aborted) return { status: 'aborted', reason: options.signal?.reason ?? error }
    throw error
  } finally {
    if (timer !== undefined) clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * Takes the thread's lock for one request. When another tab holds it and the request asked to wait
 * (`waitForThread`), says so with a `lock-wait` event and waits; otherwise answers `busy` at once.
 */
export async function* lockForRequest(
  threadId: string,
  requestId: string,
  signal: AbortSignal,
  waitForThread: boolean | WaitForThreadOptions | undefined,
): AsyncGenerator<SessionEvent, ThreadLockResult> {
  const wait = waitForThread === true ? {} : waitForThread === false ? undefined : waitForThread
  const lock = await acquireThreadLock(threadId, { signal })
  if (lock.status !== 'busy' || wait === undefined) return lock
  yield { type: 'lock-wait', requestId, threadId }
  return await acquireThreadLock(threadId, { wait, signal })
}
