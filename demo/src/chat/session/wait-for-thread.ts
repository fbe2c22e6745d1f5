/**
 * Resolves once no tab holds the thread's request lock. The agent takes a Web Lock per thread for
 * each request (`threadlens:thread:<id>`, see packages/agent/src/session/thread-lock.ts) and
 * refuses a second driver with `ThreadBusyError` instead of waiting; this waits with a shared
 * request, which is granted only after the other tab's exclusive lock is released, and lets go at
 * once. Without Web Locks there is nothing to wait for.
 */
export async function waitForThread(threadId: string, signal: AbortSignal): Promise<void> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks
  if (locks === undefined) return
  await locks.request(`threadlens:thread:${threadId}`, { mode: 'shared', signal }, () => undefined)
}
