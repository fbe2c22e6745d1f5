import type { ThreadlensStores } from '@threadlens/store'
import { useCallback, useMemo } from 'react'
import { threadActions } from './thread-actions'
import { useThreadList } from './thread-list'
import { useActiveThread } from './use-active-thread'

/** Runs an action and reports what failed (the app's problem line); `undefined` when it failed. */
type Attempt = <T>(what: string, action: () => Promise<T>) => Promise<T | undefined>

/** The chat list and the open chat: what can be done to threads, opening one (then `onOpened`), and creating one and opening it. */
export function useChatThreads(stores: ThreadlensStores, attempt: Attempt, onOpened: () => void) {
  const actions = useMemo(() => threadActions(stores), [stores])
  const list = useThreadList(stores.threads)
  const [activeId, open] = useActiveThread(list, actions.create)
  const record = list.records.find((item) => item.id === activeId)
  const openThread = useCallback(
    (threadId: string) => {
      open(threadId)
      onOpened()
    },
    [open, onOpened],
  )
  const createThread = () => void attempt('Creating a chat', actions.create).then((id) => id !== undefined && openThread(id))
  return { actions, list, activeId, record, openThread, createThread }
}
