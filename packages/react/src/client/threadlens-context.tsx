import { createContext, useContext, type ReactNode } from 'react'
import type { ThreadlensClient } from '@threadlens/client'

const ThreadlensContext = createContext<ThreadlensClient | undefined>(undefined)

export interface ThreadlensProviderProps {
  /** From `createThreadlensClient({ threads, memory })`; create it once, outside render. */
  readonly client: ThreadlensClient
  readonly children?: ReactNode
}

/** Makes a client available to the hooks below it. */
export function ThreadlensProvider({ client, children }: ThreadlensProviderProps) {
  return <ThreadlensContext.Provider value={client}>{children}</ThreadlensContext.Provider>
}

/** The client of the nearest `<ThreadlensProvider>`; throws a message naming the fix when there is none. */
export function useThreadlensClient(): ThreadlensClient {
  const client = useContext(ThreadlensContext)
  if (client === undefined) {
    throw new Error('[threadlens] no client: wrap your app in <ThreadlensProvider client={createThreadlensClient({ threads, memory })}>')
  }
  return client
}

/** The client of the nearest provider, or `undefined` (for components that also take a client prop). */
export function useOptionalThreadlensClient(): ThreadlensClient | undefined {
  return useContext(ThreadlensContext)
}
