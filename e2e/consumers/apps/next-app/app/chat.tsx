'use client'
// Rendered on the server too (SSR): importing the packages and rendering must not touch indexedDB or
// window. The stores open in an effect, in the browser only.
import { presets } from '@threadlens/core'
import { createThreadlensClient, type ThreadlensClient } from '@threadlens/client'
import { ThreadlensTokenMeter } from '@threadlens/devtools'
import { ThreadlensProvider, useProjection } from '@threadlens/react'
import { openThreadlensStores } from '@threadlens/store'
import { useEffect, useState, type ReactNode } from 'react'

const policy = presets.shortContext({ systemPrompt: 'Be brief.' })
const threadId = 'next-thread'

function Projected() {
  const { status, result } = useProjection(threadId, policy)
  return (
    <>
      <p data-testid="projected">{result === undefined ? status : `${result.messages.length} projected messages`}</p>
      <ThreadlensTokenMeter meta={result?.meta} data-testid="token-meter" style={{ maxWidth: 420 }} />
    </>
  )
}

export function Chat({ children }: { children: ReactNode }) {
  const [client, setClient] = useState<ThreadlensClient | undefined>(undefined)
  useEffect(() => {
    let cancelled = false
    void (async () => {
      const { threads, memory } = await openThreadlensStores({ name: 'consumer-next' })
      if ((await threads.get(threadId)) === undefined) await threads.create({ id: threadId, title: 'Next.js chat' })
      const visit = (await threads.load(threadId)).entries.length + 1
      await threads.append(threadId, { kind: 'message', payload: { role: 'user', content: `hello from visit ${visit}` } })
      if (!cancelled) setClient(createThreadlensClient({ threads, memory }))
    })()
    return () => {
      cancelled = true
    }
  }, [])
  if (client === undefined) return <p data-testid="projected">opening stores</p>
  return (
    <ThreadlensProvider client={client}>
      <Projected />
      {children}
    </ThreadlensProvider>
  )
}
