import { project, type ContextPolicy, type Thread, type TokenCounter } from '@threadlens/core'
import { tokenCounters, type ProjectOptions, type ThreadlensClient } from '@threadlens/client'
import { useProjection, useThreadlensClient, useTokenCounter, type ProjectionSnapshot } from '@threadlens/react'
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react'
import { newestEntries, settledNewestEntries } from '../shell/newest-entries-prefetch'
import { usePanel } from './panel-context'
import { freshRecallIndex } from './use-recall-index'

/** What the panel shows: the projection, and whether its thread holds only the newest entries yet. */
export interface PanelProjection {
  readonly snapshot: ProjectionSnapshot
  /** What the projection was computed under, and from which read. */
  readonly inputs: ProjectionInputs
  readonly source: 'first-read' | 'live'

  /**
   * `true` while the panel shows a first read of the thread's newest entries (what the projection
   * can use, read newest first) and the whole thread is still loading.
   */
  readonly partial: boolean
}

interface ProjectionInputs {
  readonly policy: ContextPolicy
  readonly options: ProjectOptions
}

/**
 * What the tabs get when a reader reports `next`. While the live thread loads after the first
 * read, the first read stays on screen (not "loading…" again). When the first read held the whole
 * thread (a short thread) and nothing changed since, its projection is kept, so the switch to the
 * live thread does not hand the tabs an equal but new result (which would reset what they keep per
 * result, e.g. an open tile): entries are append-only, so the same thread, length and inputs give
 * the same projection.
 */
function nextProjection(previous: PanelProjection, next: PanelProjection): PanelProjection {
  const before = previous.snapshot
  const after = next.snapshot
  const sameInputs =
    previous.source === 'first-read' &&
    next.source === 'live' &&
    before.threadId === after.threadId &&
    previous.inputs.policy === next.inputs.policy &&
    previous.inputs.options === next.inputs.options
  if (!sameInputs || before.status !== 'ready') return next
  if (after.status === 'loading') return previous
  const unchanged =
    after.status === 'ready' &&
    !previous.partial &&
    before.counter === after.counter &&
    before.thread?.firstSeq === 0 &&
    after.thread?.firstSeq === 0 &&
    before.thread.nextSeq === after.thread.nextSeq
  return unchanged ? previous : next
}

const PanelProjectionContext = createContext<PanelProjection | undefined>(undefined)

/**
 * The panel's projection, shared by the header and every tab (one subscription to the live thread).
 * A cold open of a long thread first reads only the newest entries the projection can use
 * (`threads.load` with a window), paints the meter and the newest timeline rows from them, and
 * only then loads the whole thread: reading and checking 10,000 entries takes most of a second,
 * the window a few milliseconds. A thread already live in the client (a re-open, or an app that
 * follows it) is shown whole at once. Render it with `key={threadId}`.
 *
 * The readers are leaves beside the tabs, so switching from the first read to the whole thread
 * re-renders the tabs but never remounts them (a half-typed filter keeps its focus).
 */
export function PanelProjectionSource({ children }: { readonly children: ReactNode }) {
  const panel = usePanel()
  const client = useThreadlensClient()
  const [whole, setWhole] = useState(() => client.thread(panel.threadId).getState().status !== 'loading')
  // A cold open whose first read is in (the shell waits for it) starts from its projection: the
  // tabs' first render shows the thread, with no render of a loading state before it.
  const [first] = useState(() => (whole ? undefined : settledFirstRead(client, panel.threadId, panel.policy, panel.projectOptions)))
  const [value, setValue] = useState<PanelProjection>(
    () =>
      first?.projection ?? {
        snapshot: loadingSnapshot(panel.threadId, undefined),
        partial: false,
        inputs: { policy: panel.policy, options: panel.projectOptions },
        source: 'live',
      },
  )
  const loadWhole = useCallback(() => setWhole(true), [])
  const onChange = useCallback((next: PanelProjection) => setValue((previous) => nextProjection(previous, next)), [])
  return (
    <>
      {whole ? <WholeThreadReader onChange={onChange} /> : <NewestEntriesReader first={first} onChange={onChange} onDone={loadWhole} />}
      <PanelProjectionContext.Provider value={value}>{children}</PanelProjectionContext.Provider>
    </>
  )
}

function loadingSnapshot(threadId: string, counter: TokenCounter | undefined): ProjectionSnapshot {
  return { status: 'loading', threadId, thread: undefined, result: undefined, counter, error: undefined }
}

function WholeThreadReader({ onChange }: { onChange(value: PanelProjection): void }) {
  const panel = usePanel()
  const { threadId, policy, projectOptions } = panel
  const snapshot = useProjection(threadId, policy, projectOptions)
  // Before paint: the tabs never show a stale projection.
  useLayoutEffect(
    () => onChange({ snapshot, partial: false, inputs: { policy, options: projectOptions }, source: 'live' }),
    [snapshot, policy, projectOptions, onChange],
  )
  return null
}

interface NewestEntries {
  readonly threadId: string
  readonly policy: ContextPolicy
  readonly counter: TokenCounter
  readonly thread: Thread
}

/** The newest entries read at open, and the panel's projection of them. */
interface FirstRead {
  readonly read: NewestEntries
  readonly projection: PanelProjection
}

function settledFirstRead(client: ThreadlensClient, threadId: string, policy: ContextPolicy, options: ProjectOptions): FirstRead | undefined {
  const counter = tokenCounters.snapshot(policy.tokenizer)
  if (counter.status !== 'ready') return undefined
  const thread = settledNewestEntries(client, threadId, policy, counter.counter)
  if (thread === undefined) return undefined
  const read: NewestEntries = { threadId, policy, counter: counter.counter, thread }
  return { read, projection: firstReadProjection(projectFirstRead(read, options), policy, options) }
}

function projectFirstRead(read: NewestEntries, options: ProjectOptions): ProjectionSnapshot {
  const { threadId, policy, counter, thread } = read
  // A read of the whole thread shares the thread's index; the newest entries alone get one of their
  // own (an index must first see the thread from its start).
  const { recall, ...rest } = options
  const index = recall === undefined || thread.firstSeq === 0 ? recall : freshRecallIndex()
  try {
    const result = project({ thread, policy, counter, ...rest, ...(index === undefined ? {} : { recall: index }) })
    return { status: 'ready', threadId, thread, result, counter, error: undefined }
  } catch {
    // The whole-thread path reports it.
    return loadingSnapshot(threadId, counter)
  }
}

function firstReadProjection(snapshot: ProjectionSnapshot, policy: ContextPolicy, options: ProjectOptions): PanelProjection {
  return { snapshot, partial: (snapshot.thread?.firstSeq ?? 0) > 0, inputs: { policy, options }, source: 'first-read' }
}

function NewestEntriesReader({ first, onChange, onDone }: { first: FirstRead | undefined; onChange(value: PanelProjection): void; onDone(): void }) {
  const panel = usePanel()
  const client = useThreadlensClient()
  const counterSnapshot = useTokenCounter(panel.policy.tokenizer)
  const counter = counterSnapshot.status === 'ready' ? counterSnapshot.counter : undefined
  const counterFailed = counterSnapshot.status === 'error'
  const { threadId, policy, projectOptions } = panel
  const [read, setRead] = useState<NewestEntries | undefined>(() => first?.read)
  const hasRead = read !== undefined && read.threadId === threadId && read.policy === policy && read.counter === counter
  useEffect(() => {
    // The whole-thread path reports a failed counter.
    if (counterFailed) onDone()
  }, [counterFailed, onDone])
  useEffect(() => {
    if (counter === undefined || hasRead) return undefined
    let current = true
    newestEntries(client, threadId, policy, counter).then(
      (thread) => {
        if (current) setRead({ threadId, policy, counter, thread })
      },
      // A missing thread or a failed read: the whole-thread path shows the error as it always has.
      () => {
        if (current) onDone()
      },
    )
    return () => {
      current = false
    }
  }, [client, threadId, policy, counter, onDone, hasRead])
  const snapshot = useMemo((): ProjectionSnapshot => {
    if (!hasRead || read === undefined) return loadingSnapshot(threadId, counter)
    // The source already projected the read it started from: the same snapshot, no second projection.
    if (first !== undefined && read === first.read && projectOptions === first.projection.inputs.options) return first.projection.snapshot
    return projectFirstRead(read, projectOptions)
  }, [first, read, hasRead, threadId, counter, projectOptions])
  useLayoutEffect(
    // The source's first value again when nothing changed: setting it is no render at all.
    () =>
      onChange(
        first !== undefined && snapshot === first.projection.snapshot && policy === first.projection.inputs.policy
          ? first.projection
          : firstReadProjection(snapshot, policy, projectOptions),
      ),
    [first, snapshot, policy, projectOptions, onChange],
  )
  const shown = snapshot.status === 'ready'
  useEffect(() => {
    if (!shown) return undefined
    // Once the newest entries are on screen (the frame after this commit), load the whole thread.
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(onDone, 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [shown, onDone])
  return null
}

function usePanelProjectionSource(): PanelProjection {
  const value = useContext(PanelProjectionContext)
  if (value === undefined) throw new Error('[threadlens] devtools tabs render inside <ThreadlensDevtoolsPanel>')
  return value
}

const waitingForWholeThread = new WeakMap<ProjectionSnapshot, ProjectionSnapshot>()

/** The projection of the whole thread; `loading` while the panel shows only the newest entries. */
export function usePanelProjection(): ProjectionSnapshot {
  const { snapshot, partial } = usePanelProjectionSource()
  if (!partial) return snapshot
  let waiting = waitingForWholeThread.get(snapshot)
  if (waiting === undefined) {
    waiting = { status: 'loading', threadId: snapshot.threadId, thread: undefined, result: undefined, counter: snapshot.counter, error: undefined }
    waitingForWholeThread.set(snapshot, waiting)
  }
  return waiting
}

/** The projection as soon as the newest entries are read (for the header and the timeline), and whether the rest is still loading. */
export function usePanelProjectionFirst(): PanelProjection {
  return usePanelProjectionSource()
}
