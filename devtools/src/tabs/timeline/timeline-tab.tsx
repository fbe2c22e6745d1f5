import { type Entry, type EntryKind, type ProjectionMeta, type TokenCounter } from '@threadlens/core'
import { entryKinds } from '@threadlens/core/internal'
import { memo, useDeferredValue, useMemo } from 'react'
import { VirtualList } from '../../components/virtual-list'
import { TIMELINE_ROW_HEIGHT } from '../../constants'
import { entryPreview, refsText } from '../../view-models/entry-preview'
import { describeFate, entryFates, sameFate, type EntryFate } from '@threadlens/core/views'
import { fateFilterOptions, fateFilters, seqMatches, type FateFilter } from '../../view-models/fate-filter'
import { reasonBadgeClass } from '../../view-models/left-out'
import { recallDetail } from '../../view-models/recall-words'
import { formatNumber } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { usePanelProjectionFirst } from '../../panel/panel-projection'
import { useRememberedChoice, useRememberedSet, useRememberedText } from '../../panel/use-remembered-filter'
import { EntryDetail } from './entry-detail'
import { ProjectionStatus } from '../shared/projection-status'
import { TimelineFilters } from './timeline-filters'

/** Every entry of the thread with its fate in the current projection; virtualized. */
export function TimelineTab() {
  const panel = usePanel()
  // The newest entries show first; the rest of a long thread follows.
  const { snapshot: projection, partial } = usePanelProjectionFirst()
  const [kinds, setKinds] = useRememberedSet<EntryKind>('timeline-kinds', entryKinds)
  const [text, setText] = useRememberedText('timeline-text')
  const [fate, setFate] = useRememberedChoice<FateFilter>('timeline-fate', fateFilters, 'all')
  const { thread, result, counter } = projection
  const entries = thread?.entries
  const visible = useVisibleRows(entries, result?.meta, kinds, text, fate)
  if (entries === undefined || result === undefined || counter === undefined) return <ProjectionStatus snapshot={projection} />
  const fates = entryFates(result.meta)
  const count = visible === undefined ? entries.length : visible.length
  const entryAt = (row: number) => entries[visible === undefined ? row : (visible[row] as number)] as Entry
  const selected = panel.selectedSeq === undefined ? undefined : thread?.bySeq(panel.selectedSeq)
  const selectedRow =
    selected === undefined ? undefined : visible === undefined ? selected.seq - (entries[0]?.seq ?? 0) : visible.indexOf(entries.indexOf(selected))
  return (
    <>
      {/* Repeated on purpose: props one a line, like devtools/src/tabs/shared/projected-messages.tsx (other components, other props). */}
      <TimelineFilters
        kinds={kinds}
        onKinds={setKinds}
        fate={fate}
        onFate={setFate}
        fateOptions={fateFilterOptions(result.meta)}
        text={text}
        onText={setText}
      >
        <TimelineCount count={count} loaded={entries.length} total={thread?.nextSeq} partial={partial} meta={result.meta} />
      </TimelineFilters>
      {selected !== undefined && selectedRow !== undefined && selectedRow < 0 ? (
        <HiddenSelection
          seq={selected.seq}
          onShowAll={() => {
            setKinds(new Set(entryKinds))
            setText('')
            setFate('all')
          }}
        />
      ) : null}
      <div className="tl-timeline-host">
        <div className="tl-split">
          <VirtualList
            count={count}
            rowHeight={TIMELINE_ROW_HEIGHT}
            label="thread timeline"
            testId="timeline"
            followEnd
            {...(selectedRow === undefined || selectedRow < 0 ? {} : { scrollToRow: selectedRow })}
            rowKey={(row) => entryAt(row).seq}
            renderRow={(row) => {
              const entry = entryAt(row)
              return (
                <TimelineRow
                  entry={entry}
                  fate={fates.fateOf(entry.seq)}
                  pinned={fates.pinned.has(entry.seq)}
                  unresolved={fates.unresolved.has(entry.seq)}
                  counter={counter}
                  selected={entry.seq === panel.selectedSeq}
                  onSelect={panel.selectSeq}
                />
              )
            }}
          />
          {selected === undefined ? null : (
            <EntryDetail entry={selected} fates={fates} counter={counter} onClose={() => panel.selectSeq(undefined)} />
          )}
        </div>
      </div>
    </>
  )
}

interface TimelineCountProps {
  /** Entries that pass the filters. */
  readonly count: number
  /** Entries read so far (the newest first). */
  readonly loaded: number
  /** Entries in the thread (its next seq). */
  readonly total: number | undefined
  /** Only the newest entries are read yet. */
  readonly partial: boolean
  readonly meta: ProjectionMeta
}

/** How many entries show of how many, how many of them the projection includes and recalls, and whether the rest is still loading. */
function TimelineCount({ count, loaded, total, partial, meta }: TimelineCountProps) {
  return (
    <span className="tl-muted" data-testid="timeline-count" data-complete={!partial} data-total={total}>
      {count} of {partial ? `the newest ${loaded} of ${total ?? loaded}` : loaded} entries · {meta.includedSeqs.length} included
      {(meta.recall?.seqs.length ?? 0) > 0 ? ` · ${meta.recall?.seqs.length} recalled` : ''}
      {partial ? ' · loading the rest…' : ''}
    </span>
  )
}

/** The open entry is filtered out of the list: say so, with a way to clear the filters. */
function HiddenSelection({ seq, onShowAll }: { readonly seq: number; onShowAll(): void }) {
  return (
    <p className="tl-muted" data-testid="timeline-hidden-selection">
      #{seq} is open but hidden by the filters.{' '}
      <button type="button" className="tl-link" onClick={onShowAll}>
        show every entry
      </button>
    </p>
  )
}

/**
 * Positions of the entries that pass the kind, fate and text filters, or undefined when every entry passes
 * (then no index array is needed). The text is deferred so typing stays responsive on long threads.
 */
function useVisibleRows(
  entries: readonly Entry[] | undefined,
  meta: ProjectionMeta | undefined,
  kinds: ReadonlySet<EntryKind>,
  text: string,
  fate: FateFilter,
): number[] | undefined {
  const query = useDeferredValue(text.trim().toLowerCase())
  return useMemo(() => {
    if (entries === undefined) return undefined
    if (query === '' && kinds.size === entryKinds.length && (fate === 'all' || meta === undefined)) return undefined // all rows: no index array needed
    const matches: number[] = []
    entries.forEach((entry, position) => {
      if (!kinds.has(entry.kind)) return
      if (meta !== undefined && !seqMatches(meta, entry.seq, fate)) return
      if (query === '' || entryPreview(entry).toLowerCase().includes(query) || refsText(entry).toLowerCase().includes(query)) matches.push(position)
    })
    return matches
  }, [entries, kinds, query, fate, meta])
}

interface TimelineRowProps {
  readonly entry: Entry
  readonly fate: EntryFate
  readonly pinned: boolean
  readonly unresolved: boolean
  readonly counter: TokenCounter
  readonly selected: boolean
  onSelect(seq: number): void
}

// An append gives a new projection, but most rows in view keep their fate: only changed rows re-render.
const TimelineRow = memo(TimelineRowView, (before, after) => {
  const { fate, ...rest } = before
  const { fate: nextFate, ...nextRest } = after
  return sameFate(fate, nextFate) && (Object.keys(rest) as (keyof typeof rest)[]).every((key) => rest[key] === nextRest[key])
})

function TimelineRowView({ entry, fate, pinned, unresolved, counter, selected, onSelect }: TimelineRowProps) {
  const { label, rule } = describeFate(fate)
  const state = fate.state === 'summary' ? 'included' : fate.state
  const recalled = recallDetail(fate)
  return (
    <div
      className="tl-timeline-row"
      data-testid="timeline-row"
      data-seq={entry.seq}
      data-state={state}
      data-fate={label}
      role="button"
      aria-current={selected ? 'true' : undefined}
      title={`${label}: ${rule}${recalled === undefined ? '' : `\n${recalled}`}${refsText(entry) === '' ? '' : `\n${refsText(entry)}`}`}
      tabIndex={0}
      onClick={() => onSelect(entry.seq)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault()
          onSelect(entry.seq)
        }
      }}
    >
      <span className="tl-mono">#{entry.seq}</span>
      <span className="tl-fate-cell">
        <span className={`tl-badge ${fateBadgeClass(fate)}`} data-testid="fate-badge">
          {label}
        </span>
        {recalled === undefined ? null : (
          <span className="tl-muted" data-testid="recall-detail">
            {recalled}
          </span>
        )}
        {pinned ? <span className="tl-badge tl-info">pinned</span> : null}
        {unresolved ? <span className="tl-badge tl-warn">unresolved</span> : null}
      </span>
      <span className="tl-kind">{entry.kind}</span>
      <span className="tl-one-line" data-testid="entry-preview">
        {entryPreview(entry)}
      </span>
      <span className="tl-tokens" data-testid="entry-tokens">
        {formatNumber(counter.countEntry(entry))}
      </span>
    </div>
  )
}

/** The left-out list's colours: red for lost history, amber for history sent in another form, blue for history recalled, plain for bookkeeping. */
function fateBadgeClass(fate: EntryFate): string {
  if (fate.state === 'dropped') return reasonBadgeClass(fate.reason)
  if (fate.state === 'summarized' || (fate.state === 'included' && fate.reduced !== undefined)) return 'tl-warn'
  return fate.state === 'recalled' ? 'tl-info' : 'tl-ok'
}
