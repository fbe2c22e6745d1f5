// Type-checked by the consumer test with moduleResolution `bundler` and `node16`, skipLibCheck off:
// every public entry point resolves to its declarations, and the declarations are not `any`.
import { createThread, createTokenCounter, definePolicy, forkThread, project, type ContextPolicy, type ProjectionResult } from '@threadlens/core'
import { cacheBreakpoints, openAITakesCacheBreakpoints, type CacheBreakpoints } from '@threadlens/core/caching'
import { isValidToolName, type ContentPart } from '@threadlens/core/parts'
import { policyForModel } from '@threadlens/core/models'
import { fromOpenAIChat, type FromOpenAIChatResult } from '@threadlens/core/import'
import { openThreadlensDB, openThreadlensStores, type ThreadStore } from '@threadlens/store'
import { imagePart, type AttachmentStore } from '@threadlens/store/attachments'
import { ThreadlensDB } from '@threadlens/store/dexie'
import { createSession } from '@threadlens/agent'
import { scriptedModel } from '@threadlens/agent/testing'
import { createThreadlensClient } from '@threadlens/client'
import { ThreadlensProvider, useProjection } from '@threadlens/react'
import { ThreadlensDevtools, ThreadlensTokenMeter } from '@threadlens/devtools'
import { ThreadlensDevtools as ShippedDevtools } from '@threadlens/devtools/production'
import { createChatPersistence, createProjectedChatTransport } from '@threadlens/ai-sdk'
import { scriptedChatModel } from '@threadlens/ai-sdk/testing'

const policy: ContextPolicy = definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 500 })
// @ts-expect-error maxInputTokens is a number: an `any` declaration would let this through.
definePolicy({ maxInputTokens: 'many' })
// Subpath entry points resolve to typed declarations too.
const cacheMarkers: boolean = openAITakesCacheBreakpoints('gpt-5.6-terra') && isValidToolName('weather')
const terra: ContextPolicy = policyForModel('gpt-5.6-terra')
const imported: FromOpenAIChatResult = fromOpenAIChat([{ role: 'user', content: 'Hi' }])
// @ts-expect-error imported entries are an array: an `any` declaration would let this through.
const notEntries: string = imported.entries
// @ts-expect-error a part is text, image or file: an `any` declaration would let this through.
const notAPart: ContentPart = { type: 'audio' }
export async function attach(attachments: AttachmentStore, blob: Blob): Promise<ContentPart> {
  return imagePart(await attachments.put('typed', blob))
}
void cacheMarkers
void terra
void notEntries
void notAPart
// The main entry opens the database lazily; the class itself is on the /dexie subpath, the same type.
export async function openDatabase(): Promise<ThreadlensDB> {
  const db = await openThreadlensDB({ name: 'typed' })
  // @ts-expect-error the database opens asynchronously: an `any` declaration would let this through.
  const notYet: ThreadlensDB = openThreadlensDB({ name: 'typed' })
  void notYet
  return db instanceof ThreadlensDB ? db : new ThreadlensDB({ name: 'typed' })
}

export async function run(): Promise<number> {
  const thread = createThread({ id: 'typed' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Hi' } })
  const counter = await createTokenCounter('o200k_base')
  const result: ProjectionResult = project({ thread, policy, counter })
  // Prompt-cache breakpoints are placed from the result, outside project().
  const placed: CacheBreakpoints = cacheBreakpoints(result)
  // @ts-expect-error breakpoints are a list: an `any` declaration would let this through.
  const notPlaced: string = placed.anthropic
  void notPlaced
  const branch = forkThread(thread, { atSeq: 0 })
  // @ts-expect-error atSeq is a number: an `any` declaration would let this through.
  forkThread(thread, { atSeq: 'first' })
  const { threads, memory } = await openThreadlensStores({ name: 'typed' })
  const store: ThreadStore = threads
  const session = createSession({ threads: store, threadId: 'typed', policy, model: scriptedModel({ script: () => 'ok' }) })
  const persistence = createChatPersistence({ chatId: 'typed', store })
  const transport = createProjectedChatTransport({ persistence, model: scriptedChatModel(), policy, counter })
  void session
  void transport
  void createThreadlensClient({ threads, memory })
  return result.meta.tokens.total + branch.nextSeq + placed.openAI.length
}

export function Count({ threadId }: { threadId: string }) {
  const { result } = useProjection(threadId, policy)
  // @ts-expect-error result may be undefined while loading.
  const total: number = result.meta.tokens.total
  // @ts-expect-error the meter's variant is compact or full: an `any` declaration would let this through.
  const wrong = <ThreadlensTokenMeter meta={result?.meta} variant="tiny" />
  void wrong
  return (
    <>
      <p>{total}</p>
      <ThreadlensTokenMeter meta={result?.meta} variant="full" className="meter" data-testid="meter" />
    </>
  )
}

export function Panel({ client }: { client: ReturnType<typeof createThreadlensClient> }) {
  return (
    <ThreadlensProvider client={client}>
      <ThreadlensDevtools threadId="typed" initialIsOpen />
      <ShippedDevtools threadId="typed" />
    </ThreadlensProvider>
  )
}
