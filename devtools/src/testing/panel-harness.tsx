import { definePolicy, type ContextPolicy, type EntryInput } from '@threadlens/core'
import type { SessionSource } from '@threadlens/core'
import type { RecallSearcher } from '@threadlens/core/recall'
import { createThreadlensClient } from '@threadlens/client'
import { createMemoryBackedStores, type MemoryBackedStores } from '@threadlens/store'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { vi } from 'vitest'
import { ThreadlensDevtoolsPanel } from '../shell/embedded-panel'
import type { TabId } from '../panel/tab-registry'
import type { DevtoolsSyncSource } from '../panel/panel-props'
import { devtoolsUiStore } from '../view-models/ui-state'

/** A heuristic-counted policy: no encoding download in tests. */
export function testPolicy(options: Parameters<typeof definePolicy>[0] = {}): ContextPolicy {
  return definePolicy({ name: 'test', tokenizer: 'heuristic', ...options })
}

export interface Harness {
  readonly stores: MemoryBackedStores
  readonly threadId: string
  readonly root: ShadowRoot
  /** The key the panel's UI state is remembered under in localStorage. */
  readonly storageKey: string
  /** One element inside the panel's shadow root, waited for. */
  find(testId: string): Promise<HTMLElement>
  query(selector: string): HTMLElement | null
  queryAll(selector: string): HTMLElement[]
  click(testId: string): Promise<void>
  unmount(): void
}

let harnessCount = 0

export interface HarnessOptions {
  readonly entries?: readonly EntryInput[]
  readonly policy?: ContextPolicy
  readonly policies?: readonly { id: string; label: string; policy: ContextPolicy }[]
  readonly tab?: TabId
  readonly session?: SessionSource
  readonly agentId?: string
  readonly memory?: string
  /** The app's recall index. Default: none (the panel loads its own at the first key press or click). */
  readonly recall?: RecallSearcher
  readonly stores?: MemoryBackedStores
  /** The app's sync status. Default: none. */
  readonly sync?: DevtoolsSyncSource
  readonly height?: number
  /** Width of the panel's container in px. Default: the page's. */
  readonly width?: number
}

/** Renders `<ThreadlensDevtoolsPanel>` over an in-memory store with the given entries. */
export async function renderPanel(options: HarnessOptions = {}): Promise<Harness> {
  const stores = options.stores ?? createMemoryBackedStores()
  const record = await stores.threads.create({ id: `harness-${++harnessCount}` })
  const entries = options.entries ?? []
  for (let start = 0; start < entries.length; start += 5000) await stores.threads.appendMany(record.id, entries.slice(start, start + 5000))
  // localStorage is shared by every test file on the origin: a key of this render's own, so one file's
  // remembered filters (a request format, a fate filter) never reach another file's panel.
  const storageKey = `threadlens-test-${harnessCount}-${crypto.randomUUID()}`
  devtoolsUiStore(storageKey)
    .getState()
    .setTab(options.tab ?? 'projection')
  const container = document.createElement('div')
  container.style.height = `${options.height ?? 600}px`
  if (options.width !== undefined) container.style.width = `${options.width}px`
  document.body.append(container)
  const reactRoot = createRoot(container)
  const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory, calls: stores.calls })
  flushSync(() =>
    reactRoot.render(
      <ThreadlensDevtoolsPanel
        client={client}
        threadId={record.id}
        policy={options.policy ?? testPolicy()}
        storageKey={storageKey}
        {...(options.policies === undefined ? {} : { policies: options.policies })}
        {...(options.session === undefined ? {} : { session: options.session })}
        {...(options.agentId === undefined ? {} : { agentId: options.agentId })}
        {...(options.sync === undefined ? {} : { sync: options.sync })}
        {...(options.memory === undefined ? {} : { memory: options.memory })}
        {...(options.recall === undefined ? {} : { recall: options.recall })}
      />,
    ),
  )
  const host = container.querySelector('[data-testid="threadlens-devtools-panel"]') as HTMLElement
  const root = host.shadowRoot as ShadowRoot
  const query = (selector: string) => root.querySelector<HTMLElement>(selector)
  const find = (testId: string) =>
    vi.waitFor(
      () => {
        const element = query(`[data-testid="${testId}"]`)
        if (element === null) throw new Error(`no [data-testid="${testId}"] yet`)
        return element
      },
      { timeout: 10_000 },
    )
  return {
    stores,
    threadId: record.id,
    root,
    storageKey,
    find,
    query,
    queryAll: (selector) => [...root.querySelectorAll<HTMLElement>(selector)],
    async click(testId) {
      ;(await find(testId)).click()
    },
    unmount() {
      reactRoot.unmount()
      container.remove()
    },
  }
}

/** A conversation of `turns` user/assistant turns; every third turn calls a tool. */
export function conversation(turns: number, words = 30): EntryInput[] {
  const inputs: EntryInput[] = []
  for (let turn = 0; turn < turns; turn++) {
    const requestId = `r${turn}`
    inputs.push({ kind: 'message', payload: { role: 'user', content: `question ${turn} ${'lorem '.repeat(words)}` }, refs: { requestId } })
    if (turn % 3 === 0) {
      inputs.push({
        kind: 'tool_call',
        payload: { name: 'lookup', arguments: { turn } },
        refs: { requestId, callId: `c${turn}a`, toolCallId: `t${turn}` },
      })
      inputs.push({
        kind: 'tool_result',
        payload: { name: 'lookup', result: { turn, rows: [1, 2, 3] } },
        refs: { requestId, toolCallId: `t${turn}` },
      })
    }
    inputs.push({
      kind: 'message',
      payload: { role: 'assistant', content: `answer ${turn} ${'ipsum '.repeat(words)}` },
      refs: { requestId, callId: `c${turn}` },
    })
  }
  return inputs
}

/** `vi.waitFor` with room for a loaded machine (the default gives up after 1 s). */
export function eventually<T>(callback: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(callback, { timeout: 10_000, interval: 20 })
}
