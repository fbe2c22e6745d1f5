import { createThreadlensClient, type ThreadlensClient } from '@threadlens/client'
import { ThreadlensProvider } from '@threadlens/react'
import { openThreadlensStores, type ThreadlensStores } from '@threadlens/store'
// The demo ships the devtools in its production build on purpose, hence the `production` subpath.
import { ThreadlensDevtools } from '@threadlens/devtools/production'
import { useEffect, useState } from 'react'
import { defaultPolicyId, policyById, policyChoices } from '../policies'
import { ensureSampleAttempts } from './sample-attempts'
import { ensureGeneratedThread, ensureSampleThread, generatedInputs } from './seed-threads'

export const sampleThreadId = 'sample-trip-japan'
export const demoAgentId = 'demo-planner'

/** What e2e tests and the bench drive from the page (`window.__threadlensDemo`). */
export interface DemoHandle {
  readonly stores: ThreadlensStores
  readonly threadId: string
  /** Appends `count` generated entries to the inspected thread, one transaction each. */
  append(count: number): Promise<void>
}

interface Ready {
  readonly client: ThreadlensClient
  readonly threadId: string
}

async function setUp(): Promise<Ready> {
  const stores = await openThreadlensStores({ name: 'threadlens-demo' })
  // `?entries=10000` inspects a generated thread of that size instead of the sample.
  const size = Number(new URLSearchParams(globalThis.location.search).get('entries') ?? '0')
  const threadId = size > 0 ? `generated-${size}` : sampleThreadId
  if (size > 0) await ensureGeneratedThread(stores.threads, threadId, size)
  else {
    await ensureSampleThread(stores.threads, threadId)
    await ensureSampleAttempts(stores.calls, threadId, async () => (await stores.threads.load(threadId)).entries, policyById(defaultPolicyId).policy)
  }
  const memory = await stores.memory.get(demoAgentId)
  if (memory.rev === 0) {
    await stores.memory.tasks.add(demoAgentId, 'Book the Kagayaki 509 (SmartEX, from March 5)')
    await stores.memory.world.put(demoAgentId, 'dietary', 'vegetarian; partner has a severe peanut allergy')
  }
  let appended = 0
  const handle: DemoHandle = {
    stores,
    threadId,
    async append(count) {
      for (const input of generatedInputs(count, 100_000 + appended)) await stores.threads.append(threadId, input)
      appended += count
    },
  }
  ;(globalThis as { __threadlensDemo?: DemoHandle }).__threadlensDemo = handle
  return { client: createThreadlensClient({ threads: stores.threads, memory: stores.memory, calls: stores.calls }), threadId }
}

// Once per page, even when StrictMode runs the effect twice.
let starting: Promise<Ready> | undefined
// The built-in presets are already in the devtools' menu; the demo adds its tiny one.
const extraPolicies = policyChoices.filter((choice) => choice.id === 'tiny')

/** The devtools beside the demo page, over the sample thread stored in IndexedDB. */
export function LabDevtools() {
  const [ready, setReady] = useState<Ready | { error: string } | undefined>(undefined)
  useEffect(() => {
    starting ??= setUp()
    starting.then(setReady, (error: unknown) => setReady({ error: error instanceof Error ? error.message : String(error) }))
  }, [])
  if (ready === undefined) return null
  if ('error' in ready) {
    return (
      <p role="alert" className="placeholder error">
        Devtools could not start: {ready.error}
      </p>
    )
  }
  return (
    <ThreadlensProvider client={ready.client}>
      <ThreadlensDevtools threadId={ready.threadId} policy={policyById(defaultPolicyId).policy} policies={extraPolicies} agentId={demoAgentId} />
    </ThreadlensProvider>
  )
}
