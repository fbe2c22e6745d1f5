import { webLocks } from '@threadlens/core/internal'

/** Runs `task` holding the chat's lock: a Web Lock across tabs where available, and always in order within this tab. */
export function createLock(name: string): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(task: () => Promise<T>): Promise<T> => {
    const locks = webLocks()
    const run = (): Promise<T> => (locks === undefined ? task() : (locks.request(name, task) as Promise<T>))
    const result = tail.then(run, run)
    tail = result.catch(() => undefined)
    return result
  }
}
