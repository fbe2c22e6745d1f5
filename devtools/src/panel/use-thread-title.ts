import { useOptionalThreadlensClient } from '@threadlens/react'
import { useCallback, useSyncExternalStore } from 'react'

const noSubscription = () => () => {}

/**
 * The stored thread's title, live (a rename in any tab shows): `undefined` while loading or when
 * the store has no record of it, `''` when the thread has no title. Read from the client's live
 * thread, the one the panel's projection follows: its subscription carries the record, so no
 * thread-list query re-runs after every append.
 */
export function useThreadTitle(threadId: string): string | undefined {
  const live = useOptionalThreadlensClient()?.thread(threadId)
  const subscribe = useCallback((onChange: () => void) => (live === undefined ? noSubscription() : live.subscribe(onChange)), [live])
  const title = () => live?.getState().record?.title
  return useSyncExternalStore(subscribe, title, title)
}
