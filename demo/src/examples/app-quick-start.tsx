import { createTokenCounter, presets } from '@threadlens/core'
import { openThreadlensStores } from '@threadlens/store'
import { createSession } from '@threadlens/agent'
import { scriptedModel } from '@threadlens/agent/testing'
import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensProvider } from '@threadlens/react'
import { ThreadlensDevtools } from '@threadlens/devtools'
import { createRoot } from 'react-dom/client'

const counter = createTokenCounter('o200k_base') // not awaited: the ranks load once the page has painted
const { threads, memory } = await openThreadlensStores({ name: 'quick-start', counters: [counter] })
const thread = (await threads.list())[0] ?? (await threads.create({ title: 'First chat' }))
const session = createSession({
  threads, threadId: thread.id, counter, policy: presets.shortContext(),
  // Offline; use openAICompatible({ baseURL, apiKey, model }) or anthropic({ apiKey, model }) for a real model.
  model: scriptedModel({ script: ({ projection }) => `I see ${projection.messages.length} message(s).` }),
})

createRoot(document.getElementById('root') as HTMLElement).render(
  <ThreadlensProvider client={createThreadlensClient({ threads, memory })}>
    <ThreadlensDevtools session={session} initialIsOpen />
  </ThreadlensProvider>,
)
for await (const event of session.send('Hello!')) {
  if (event.type === 'text-delta') console.log(event.text)
  if (event.type === 'error') console.error(event.error) // the thread is intact
}
