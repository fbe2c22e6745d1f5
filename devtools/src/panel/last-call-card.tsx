import type { Thread } from '@threadlens/core'
import { createSessionSource, threadCalls } from '@threadlens/client'
import { useCallAttempts, useSession, useThread } from '@threadlens/react'
import { useMemo } from 'react'
import { traceRows, type TraceRow } from '../model/call-trace-rows'
import { lastCallFacts } from '../model/last-call'
import { leftOut } from '../model/left-out'
import { reasonInWords } from '../model/plain-words'
import { useRowReplay } from '../tabs/row-replay'
import { usePanel } from './panel-context'

const noSession = createSessionSource({ status: 'idle', threadId: '' })
const toneClass = { ok: 'tl-ok', warn: 'tl-warn', danger: 'tl-danger', plain: '' } as const

/**
 * The last call at a glance, at the top of the panel: how it ended, what it sent against the budget,
 * what it left out and mainly why, the cache, cost and latency. One line on a phone (the whole of it
 * in the tooltip and for screen readers); the Calls tab has the rest.
 */
export function LastCallCard() {
  const panel = usePanel()
  const thread = useThread(panel.threadId, (snapshot) => snapshot.thread)
  const records = useSession(panel.session ?? noSession, (snapshot) => snapshot.calls)
  const attempts = useCallAttempts(panel.threadId).value
  const newest = useMemo(() => (thread === undefined ? undefined : traceRows(threadCalls(thread, records), attempts).at(-1)), [thread, records, attempts])
  if (thread === undefined || newest === undefined) return null
  return <LastCallLine thread={thread} row={newest} />
}

function LastCallLine({ thread, row }: { readonly thread: Thread; readonly row: TraceRow }) {
  const panel = usePanel()
  const replay = useRowReplay(thread, row, panel.basePolicy)
  const ready = replay.status === 'ready' ? replay.replay : undefined
  const facts = useMemo(() => {
    const meta = ready?.result.meta
    const groups = ready === undefined ? undefined : leftOut(ready.result.meta, { entryAt: (seq) => thread.bySeq(seq), counter: ready.counter })
    return lastCallFacts({ row, meta, leftOut: groups, reasonText: (group) => reasonInWords(group.reason, meta?.summary?.seq).short })
  }, [row, ready, thread])
  const sentence = `Last call: ${facts.map((fact) => fact.text).join(' · ')}`
  // A button: the Calls tab has the call in full (on a phone, where the line is cut, the way to read the rest).
  return (
    <button type="button" className="tl-last-call" data-testid="last-call" data-status={row.status} title={`${sentence}\n(open in Calls)`} onClick={() => panel.ui.getState().setTab('calls')}>
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
