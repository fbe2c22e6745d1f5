import { useCallback, useState } from 'react'
import { POLICY_STORAGE_KEY } from '../chat-config'
import { DEFAULT_POLICY_ID } from './chat-policies'

function stored(): string {
  try {
    return globalThis.localStorage?.getItem(POLICY_STORAGE_KEY) ?? DEFAULT_POLICY_ID
  } catch {
    return DEFAULT_POLICY_ID
  }
}

/** The chosen policy's id, remembered across reloads (a preference: no history, no secret). */
export function usePolicyId(): readonly [string, (id: string) => void] {
  const [id, setId] = useState(stored)
  const choose = useCallback((next: string) => {
    setId(next)
    try {
      globalThis.localStorage?.setItem(POLICY_STORAGE_KEY, next)
    } catch {
      // Private mode or a full quota: the choice lasts for this page only.
    }
  }, [])
  return [id, choose] as const
}
