/** The part of the Web Locks API (`navigator.locks`) threadlens uses. */
export interface WebLockManager {
  request<T>(name: string, callback: (lock: { readonly name: string } | null) => T | Promise<T>): Promise<T>
  request<T>(
    name: string,
    options: { readonly ifAvailable?: boolean; readonly signal?: AbortSignal; readonly mode?: 'exclusive' | 'shared' },
    callback: (lock: { readonly name: string } | null) => T | Promise<T>,
  ): Promise<T>
}

/**
 * The page's Web Locks manager, or `undefined` where there is none (Node, old browsers, some
 * workers): callers then run as the only holder.
 */
export function webLocks(): WebLockManager | undefined {
  return (globalThis as { navigator?: { locks?: WebLockManager } }).navigator?.locks
}
