import type { Thread } from '@threadlens/core'
import { threadCalls } from '@threadlens/core/calls'
import { createSessionSource } from '@threadlens/client'
import { useCallAttempts, useSession } from '@threadlens/react'
import { useMemo } from 'react'
import { traceRows, type TraceRow } from '../view-models/call-trace-rows'
import { lastCallFacts } from '../view-models/last-call'
import { useModelPrices } from '../view-models/model-prices'
import { leftOut } from '../view-models/left-out'
import { reasonInWords } from '../view-models/plain-words'
import { useRowReplay } from '../tabs/calls/use-row-replay'
import { usePanel } from './panel-context'

const noSession = createSessionSource({ status: 'idle', threadId: '' })
/** The newest call's id and how many entries it has so far; '' for a thread with no call. */
export function newestCallKey(thread: Thread): string {
  const entries = thread.entries
  for (let index = entries.length - 1; index >= 0; index--) {
    const callId = entries[index]?.refs.callId
    if (callId !== undefined) return `${thread.id}/${callId}/${thread.index.seqsByCallId.get(callId)?.length ?? 0}`
  }
  return `${thread.id}/`
}

const toneClass = { ok: 'tl-ok', warn: 'tl-warn', danger: 'tl-danger', plain: '' } as const

/** The newest call's line, loaded once the thread has a call (see `LastCallCard`). */
export default function LastCallBody({ thread }: { readonly thread: Thread }) {
  const panel = usePanel()
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const attempts = useCallAttempts(panel.threadId).value
  // The calls are worked out again only when the newest call changes (a new one, or more entries of
  // it), not on every append: an append that is not part of a call costs a short scan from the end.
  const callKey = newestCallKey(thread)
  const newest = useMemo(
    () => traceRows(threadCalls(thread, records), attempts).at(-1),
    // `thread` is read through `callKey`: a new thread version with the same newest call changes nothing here.
    [callKey, records, attempts],
  )
  if (newest === undefined) return null
  return <LastCallLine thread={thread} row={newest} />
}

function LastCallLine({ thread, row }: { readonly thread: Thread; readonly row: TraceRow }) {
  const panel = usePanel()
  // What the call sent does not change as later entries come in: it is replayed once per call (with
  // the thread as it was when the call first showed), not on every append.
  const pinned = useMemo(() => ({ thread, row }), [row.key])
  const replay = useRowReplay(pinned.thread, pinned.row, panel.basePolicy)
  const ready = replay.status === 'ready' ? replay.replay : undefined
  const groups = useMemo(
    () => (ready === undefined ? undefined : leftOut(ready.result.meta, { entryAt: (seq) => pinned.thread.bySeq(seq), counter: ready.counter })),
    [ready, pinned],
  )
  // The cost comes once the model prices have loaded, at the visitor's first interaction with the page.
  const prices = useModelPrices()
  const facts = useMemo(
    () =>
      lastCallFacts({
        row,
        meta: ready?.result.meta,
        leftOut: groups,
        reasonText: (group) => reasonInWords(group.reason, ready?.result.meta.summary?.seq).short,
      }),
    [row, ready, groups, prices],
  )
  const sentence = `Last call: ${facts.map((fact) => fact.text).join(' · ')}`
  // A button: the Calls tab has the call in full (on a phone, where the line is cut, the way to read the rest).
  return (
    <button
      type="button"
      className="tl-last-call"
      data-testid="last-call"
      data-status={row.status}
      title={`${sentence}\n(open in Calls)`}
      onClick={() => panel.ui.getState().setTab('calls')}
    >
      <span className="tl-last-call-title">Last call:</span>{' '}
      {facts.map((fact, position) => (
        <span key={fact.id}>
          {position === 0 ? null : <span className="tl-muted"> · </span>}
          <span className={`tl-last-call-fact ${toneClass[fact.tone]}`} data-fact={fact.id}>
            {fact.text}
          </span>
        </span>
      ))}
    </button>
  )
}
