import type { ProjectionResult } from '@threadlens/core'
import { useMemo } from 'react'
import { messagePreview, messageRole, messageSource } from '../../view-models/message-preview'
import { formatNumber } from '../../view-models/meter-parts'
import { turnDiff, type EntryChange } from '../../view-models/turn-diff'
import { useRememberedChoice } from '../../panel/use-remembered-filter'
import { signed } from '../shared/turn-diff-view'

type Mark = 'entering' | 'leaving' | 'changed' | undefined

interface Item {
  readonly position: number
  readonly mark: Mark
  readonly delta: number
  /** Why, in words; `rule` as the projector states it. */
  readonly reason: string
  readonly rule: string
}

const MESSAGES_SHOWN = 300
/** Whether the two lists show only the messages that differ, or all of them (remembered). */
const labMessageChoices = ['changed', 'all'] as const

function items(result: ProjectionResult, changes: ReadonlyMap<number, EntryChange>, side: 'before' | 'after'): Item[] {
  return result.messages.map((_, position) => {
    const seqs = result.meta.messages[position]?.seqs ?? []
    const own = seqs.map((seq) => changes.get(seq)).filter((change): change is EntryChange => change !== undefined)
    const relevant = own.filter((change) => (side === 'before' ? change.change !== 'entered' : change.change !== 'left'))
    const first = relevant[0]
    const mark: Mark = first === undefined ? undefined : first.change === 'changed' ? 'changed' : first.change === 'entered' ? 'entering' : 'leaving'
    return { position, mark, delta: relevant.reduce((sum, change) => sum + change.delta, 0), reason: first?.words ?? '', rule: first?.reason ?? '' }
  })
}

const markWords: Readonly<Record<NonNullable<Mark>, string>> = { entering: 'entering', leaving: 'leaving', changed: 'changed form' }

/**
 * The two requests side by side (they stack when narrow): every message with its text and tokens,
 * the ones leaving marked in the app policy's list, the ones entering or changing form in the other,
 * each with its token change and why.
 */
export function LabColumns({ base, lab }: { readonly base: ProjectionResult; readonly lab: ProjectionResult }) {
  const diff = useMemo(() => turnDiff(base, lab), [base, lab])
  const changes = useMemo(() => new Map(diff.changes.map((change) => [change.seq, change])), [diff])
  const [shown, setShown] = useRememberedChoice('lab-messages', labMessageChoices, 'changed')
  const all = shown === 'all'
  return (
    <div data-testid="lab-columns">
      <label className="tl-row tl-muted" style={{ marginBottom: 6 }}>
        <input type="checkbox" checked={all} onChange={(event) => setShown(event.target.checked ? 'all' : 'changed')} data-testid="lab-show-all" />{' '}
        show unchanged messages too
      </label>
      <div className="tl-diff-columns">
        <Column title="App policy sends" result={base} list={items(base, changes, 'before')} all={all} testId="lab-before" />
        <Column title="This policy sends" result={lab} list={items(lab, changes, 'after')} all={all} testId="lab-after" />
      </div>
    </div>
  )
}

function Column({
  title,
  result,
  list,
  all,
  testId,
}: {
  readonly title: string
  readonly result: ProjectionResult
  readonly list: readonly Item[]
  readonly all: boolean
  readonly testId: string
}) {
  const marked = list.filter((item) => item.mark !== undefined)
  const shown = (all ? list : marked).slice(0, MESSAGES_SHOWN)
  const hidden = (all ? list.length : marked.length) - shown.length
  return (
    <section aria-label={title} data-testid={testId}>
      <h4 className="tl-h">
        {title}: {result.messages.length} messages · {formatNumber(result.meta.tokens.total)} tokens
        {all ? '' : <span className="tl-muted"> ({list.length - marked.length} unchanged not shown)</span>}
      </h4>
      {shown.length === 0 ? <p className="tl-muted">No message differs.</p> : null}
      <ul className="tl-block-list">
        {shown.map((item) => {
          const message = result.messages[item.position]
          const info = result.meta.messages[item.position]
          if (message === undefined) return null
          return (
            <li
              key={item.position}
              className="tl-lab-item"
              data-change={item.mark}
              data-testid="lab-message"
              data-seqs={(info?.seqs ?? []).join(',')}
            >
              <span className={item.mark === undefined ? 'tl-muted tl-change' : `tl-change tl-change-${item.mark}`}>
                {item.mark === undefined ? 'same' : markWords[item.mark]}
              </span>
              <span>
                <span className="tl-role">{messageRole(message)}</span> <span className="tl-muted tl-mono">{messageSource(message, info)}</span>{' '}
                {item.mark === undefined ? null : (
                  <span className="tl-muted" title={item.rule}>
                    {item.reason}
                  </span>
                )}
              </span>
              <span className="tl-num">
                {formatNumber(info?.tokens ?? 0)} tok{item.mark === undefined ? '' : ` (${signed(item.delta)})`}
              </span>
              <span className="tl-preview">{messagePreview(message)}</span>
            </li>
          )
        })}
      </ul>
      {hidden > 0 ? <p className="tl-muted">… and {hidden} more</p> : null}
    </section>
  )
}
