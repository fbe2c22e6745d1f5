import { useCallback, useEffect, useRef, useState } from 'react'
import type { ThreadListSnapshot } from './thread-list'

function threadInHash(): string | undefined {
  const match = /^#thread=([A-Za-z0-9_.:-]{1,128})$/.exec(globalThis.location.hash)
  return match?.[1]
}

/**
 * The open thread, kept in the URL (`#thread=<id>`) so a reload, a bookmark or a second tab opens
 * the same one. Falls back to the most recent thread, and makes a first one for a new user.
 */
export function useActiveThread(list: ThreadListSnapshot, create: () => Promise<string>): readonly [string | undefined, (threadId: string) => void] {
  const [hashed, setHashed] = useState(threadInHash)
  const creating = useRef(false)

  useEffect(() => {
    const onHash = () => setHashed(threadInHash())
    globalThis.addEventListener('hashchange', onHash)
    return () => globalThis.removeEventListener('hashchange', onHash)
  }, [])

  const open = useCallback((threadId: string) => {
    if (threadInHash() !== threadId) globalThis.location.hash = `thread=${threadId}`
    setHashed(threadId)
  }, [])

  const known = list.records.some((record) => record.id === hashed)
  const fallback = list.records[0]?.id
  useEffect(() => {
    if (list.status !== 'ready' || known) return
    if (fallback !== undefined) {
      // Replace, not push: "back" should not return to a thread that is gone.
      globalThis.history.replaceState(null, '', `#thread=${fallback}`)
      setHashed(fallback)
    } else if (!creating.current) {
      creating.current = true
      void create().then(open, () => undefined)
    }
  }, [list.status, known, fallback, create, open])

  return [known ? hashed : undefined, open] as const
}
