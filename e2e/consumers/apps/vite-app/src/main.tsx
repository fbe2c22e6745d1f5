// Persists a thread (one message per visit), shows its projection, its token meter and the devtools panel over it.
import { presets } from '@threadlens/core'
import { ThreadlensTokenMeter } from '@threadlens/devtools'
import { ThreadlensDevtools } from '@threadlens/devtools/production'
import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensProvider, useProjection } from '@threadlens/react'
import { openThreadlensStores } from '@threadlens/store'
import { version } from 'react'
import { createRoot } from 'react-dom/client'

const { threads, memory } = await openThreadlensStores({ name: 'consumer-app' })
const thread = (await threads.list())[0] ?? (await threads.create({ title: 'Consumer chat' }))
const visit = (await threads.load(thread.id)).entries.length + 1
await threads.append(thread.id, { kind: 'message', payload: { role: 'user', content: `hello from visit ${visit}` } })
const policy = presets.shortContext({ systemPrompt: 'Be brief.' })

function Projected({ threadId }: { threadId: string }) {
  const { status, result } = useProjection(threadId, policy)
  return (
    <>
      <p data-testid="projected">{result === undefined ? status : `${result.messages.length} projected messages`}</p>
      {/* The devtools' token meter is an app component: the root export renders it in production too. */}
      <ThreadlensTokenMeter meta={result?.meta} data-testid="token-meter" style={{ maxWidth: 420 }} />
    </>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <ThreadlensProvider client={createThreadlensClient({ threads, memory })}>
    <p data-testid="react-version">React {version}</p>
    <Projected threadId={thread.id} />
    <ThreadlensDevtools threadId={thread.id} policy={policy} initialIsOpen />
  </ThreadlensProvider>,
)
