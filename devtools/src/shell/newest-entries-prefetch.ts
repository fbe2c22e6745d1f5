import type { ContextPolicy, Thread, TokenCounter } from '@threadlens/core'
import { tokenCounters, type ThreadlensClient } from '@threadlens/client'
import type { DevtoolsPanelProps } from '../panel/panel-props'

interface Prefetch {
  readonly client: ThreadlensClient
  readonly threadId: string
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly read: Promise<Thread>
  /** The thread, once the read has resolved. */
  thread: Thread | undefined
}

// One at a time: the read started by the open in progress.
let pending: Prefetch | undefined

/**
 * Starts the panel's first read (the newest entries the projection can use) when the panel opens,
 * so it runs while the panel's chunk downloads instead of after it. Only when the thread, the
 * policy and its counter are known here (the `threadId`/`session` and `policy` props, a counter
 * the page already loaded) and the thread is not live in the client already (then the panel
 * shows it whole at once). Returns a promise that settles (never rejects) with the read, or
 * `undefined` when no read was started.
 */
export function prefetchNewestEntries(props: DevtoolsPanelProps, contextClient: ThreadlensClient | undefined): Promise<void> | undefined {
  const client = props.client ?? contextClient
  const session = props.session?.getSnapshot()
  const threadId = props.threadId ?? (session?.threadId === '' ? undefined : session?.threadId)
  const policy = props.policy ?? session?.policy
  if (client === undefined || threadId === undefined || policy === undefined) return undefined
  if (client.thread(threadId).getState().status !== 'loading') return undefined
  const counter = tokenCounters.snapshot(policy.tokenizer)
  if (counter.status !== 'ready') return undefined
  const read = client.threads.load(threadId, { window: { policy, counter: counter.counter } })
  const prefetch: Prefetch = { client, threadId, policy, counter: counter.counter, read, thread: undefined }
  pending = prefetch
  return read.then(
    (thread) => {
      prefetch.thread = thread
    },
    // A failed read is the panel's to report, from its own read.
    () => undefined,
  )
}

/** Forgets a read the panel did not take (it closed first, or its chunk failed). */
export function discardNewestEntries(): void {
  pending = undefined
}

function take(client: ThreadlensClient, threadId: string, policy: ContextPolicy, counter: TokenCounter): Prefetch | undefined {
  const prefetched = pending
  pending = undefined
  const matches =
    prefetched !== undefined &&
    prefetched.client === client &&
    prefetched.threadId === threadId &&
    prefetched.policy === policy &&
    prefetched.counter === counter
  return matches ? prefetched : undefined
}

/**
 * The thread read at open for these inputs if that read has already resolved (the panel then
 * renders it at once), else `undefined`: a read still running stays for `newestEntries`, one for
 * other inputs is dropped.
 */
export function settledNewestEntries(client: ThreadlensClient, threadId: string, policy: ContextPolicy, counter: TokenCounter): Thread | undefined {
  if (pending?.thread === undefined) return undefined
  return take(client, threadId, policy, counter)?.thread
}

/** The read started at open for these inputs, else a new one; either way the prefetch is used up. */
export function newestEntries(client: ThreadlensClient, threadId: string, policy: ContextPolicy, counter: TokenCounter): Promise<Thread> {
  return take(client, threadId, policy, counter)?.read ?? client.threads.load(threadId, { window: { policy, counter } })
}
