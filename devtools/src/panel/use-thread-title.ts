import { useOptionalThreadlensClient } from '@threadlens/react'
import { useEffect, useState } from 'react'

/**
 * The stored thread's title, live (a rename in any tab shows): `undefined` while loading or when
 * the store has no record of it, `''` when the thread has no title.
 */
export function useThreadTitle(threadId: string): string | undefined {
  const threads = useOptionalThreadlensClient()?.threads
  const [title, setTitle] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (threads === undefined) return undefined
    setTitle(undefined)
    try {
      return threads.subscribeList((event) => {
        if (event.type !== 'list-update') return
        setTitle(event.threads.find((record) => record.id === threadId)?.title)
      })
    } catch {
      // A stopped store: the header shows the id instead.
      return undefined
    }
  }, [threads, threadId])
  return title
}
