/**
 * One tab drives a thread at a time: a Web Lock per thread, held for one request. Where Web Locks
 * do not exist (Node, old browsers) every request gets the lock.
 */
export async function acquireThreadLock(threadId: string): Promise<{ release: () => void } | undefined> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks
  if (locks === undefined) return { release: () => undefined }
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const acquired = await new Promise<boolean>((resolve) => {
    void locks.request(`threadlens:thread:${threadId}`, { ifAvailable: true }, (lock) => {
      resolve(lock !== null)
      return lock === null ? undefined : held
    })
  })
  return acquired ? { release } : undefined
}
