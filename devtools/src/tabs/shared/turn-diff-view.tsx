import type { Entry, ProjectionResult } from '@threadlens/core'
import { useMemo } from 'react'
import { entryPreview } from '../../view-models/entry-preview'
import { oneLine } from '../../view-models/message-preview'
import { formatNumber } from '../../view-models/meter-parts'
import { turnDiff, type EntryChange, type TurnDiff } from '../../view-models/turn-diff'
import { breakpointPlace, breakpointReasons } from './cache-breakpoints'

const CHANGES_SHOWN = 200

/** Cache figures for the later request, when known. */
export interface CacheFigures {
  /** Read tokens the prompt-cache simulator predicts for this request after the earlier one. */
  readonly predictedReadTokens?: number
  /** Cached input tokens the provider reported. */
  readonly reportedReadTokens?: number
  /** Why there is no reported figure (an attempt that did not answer), said instead of "none". */
  readonly reportedNote?: string
  /** Why there is no prediction, when there could have been one. */
  readonly predictedNote?: string
}

export interface TurnDiffViewProps {
  readonly before: ProjectionResult
  readonly after: ProjectionResult
  readonly entryAt: (seq: number) => Entry | undefined
  /** `the call before`, `the app policy`, … */
  readonly beforeLabel: string
  readonly cache?: CacheFigures
  readonly testId: string
  /** `turnDiff(before, after)` when the caller has it already. */
  readonly diff?: TurnDiff
}

export const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatNumber(Math.abs(value))}`

const changeWords: Readonly<Record<EntryChange['change'], string>> = { entered: 'entered', left: 'left', changed: 'changed form' }

/** What this request sent compared with an earlier one: entries in, out and reshaped, and where the cached prefix broke. */
export function TurnDiffView({ before, after, entryAt, beforeLabel, cache, testId, diff: given }: TurnDiffViewProps) {
  const computed = useMemo(() => (given === undefined ? turnDiff(before, after) : undefined), [before, after, given])
  const diff = given ?? (computed as TurnDiff)
  const sum = (kind: EntryChange['change']) => diff.changes.filter((item) => item.change === kind).reduce((total, item) => total + item.delta, 0)
  return (
    <div className="tl-card" data-testid={testId} data-entered={diff.entered} data-left={diff.left} data-changed={diff.changed}>
      <p>
        vs {beforeLabel}: <strong>{signed(diff.tokenDelta)} tokens</strong> ({formatNumber(diff.tokensBefore)} → {formatNumber(diff.tokensAfter)}) ·{' '}
        <span className="tl-change-entering">
          {diff.entered} entered ({signed(sum('entered'))})
        </span>{' '}
        ·{' '}
        <span className="tl-change-leaving">
          {diff.left} left ({signed(sum('left'))})
        </span>{' '}
        ·{' '}
        <span className="tl-change-changed">
          {diff.changed} changed form ({signed(sum('changed'))})
        </span>
      </p>
      <PrefixLine diff={diff} after={after} />
      {diff.breakpoints.length === 0 ? null : <BreakpointReuseTable diff={diff} before={before} />}
      {cache === undefined ? null : <CacheLine diff={diff} cache={cache} />}
      <ChangeList changes={diff.changes} entryAt={entryAt} />
    </div>
  )
}

function PrefixLine({ diff, after }: { readonly diff: TurnDiff; readonly after: ProjectionResult }) {
  const { prefix } = diff
  const stable = prefix.byte === undefined
  const message = prefix.messageIndex === undefined ? undefined : after.messages[prefix.messageIndex]
  const info = prefix.messageIndex === undefined ? undefined : after.meta.messages[prefix.messageIndex]
  return (
    <div data-testid="prefix-break" data-byte={prefix.byte}>
      <p title={stable ? undefined : `the two requests differ from byte ${formatNumber(prefix.byte ?? 0)} of the later one on`}>
        <span className={`tl-badge ${stable ? 'tl-ok' : 'tl-warn'}`} data-testid="prefix-stable" data-stable={stable}>
          {stable ? 'cache keeps matching' : 'cache stops matching'}
        </span>{' '}
        {stable
          ? `the earlier request opens this one unchanged: all ${prefix.sharedMessages} messages (${formatNumber(prefix.sharedTokens)} tokens) can be read from the provider's cache`
          : `the request changed in message ${(prefix.messageIndex ?? 0) + 1}${
              message === undefined
                ? ''
                : ` (${info?.segment ?? ''} · ${message.role}${info === undefined || info.seqs.length === 0 ? '' : ` #${info.seqs.join(', #')}`})`
            }: only the ${prefix.sharedMessages} messages before it (${formatNumber(prefix.sharedTokens)} tokens) can be read from the provider's cache; the rest is paid at the full input price`}
      </p>
      {stable ? null : (
        <div className="tl-diff-columns">
          <pre className="tl-pre tl-break-text" aria-label="before, around the break" tabIndex={0}>
            before: …{prefix.beforeText}…
          </pre>
          <pre className="tl-pre tl-break-text" aria-label="after, around the break" tabIndex={0}>
            after: …{prefix.afterText}…
          </pre>
        </div>
      )}
    </div>
  )
}

function BreakpointReuseTable({ diff, before }: { readonly diff: TurnDiff; readonly before: ProjectionResult }) {
  return (
    <div>
      <p className="tl-muted tl-bp-caption">The earlier request&apos;s cache breakpoints: read back by this one?</p>
      <ul className="tl-bp-list" data-testid="breakpoint-reuse">
        {diff.breakpoints.map((item) => (
          <li key={String(item.breakpoint.at)} className="tl-bp" data-reusable={item.reusable}>
            <span className="tl-mono">{breakpointPlace(before, item.breakpoint.at)}</span>
            <span className="tl-bp-why">{breakpointReasons[item.breakpoint.reason]}</span>
            <span className="tl-num">caches {formatNumber(item.prefixTokens)} tok</span>
            {item.reusable ? <span className="tl-badge tl-ok">read back</span> : <span className="tl-badge tl-warn">lost</span>}
          </li>
        ))}
      </ul>
    </div>
  )
}

function CacheLine({ diff, cache }: { readonly diff: TurnDiff; readonly cache: CacheFigures }) {
  return (
    <p data-testid="cache-figures">
      cache reads: breakpoints allow {formatNumber(diff.reusableTokens)} tokens
      {cache.predictedReadTokens !== undefined
        ? ` · simulator predicts ${formatNumber(cache.predictedReadTokens)}`
        : cache.predictedNote === undefined
          ? ''
          : ` · ${cache.predictedNote}`}
      {cache.reportedReadTokens !== undefined
        ? ` · provider reported ${formatNumber(cache.reportedReadTokens)}`
        : cache.reportedNote === undefined
          ? ' · provider reported none'
          : ` · ${cache.reportedNote}`}
    </p>
  )
}

function ChangeList({ changes, entryAt }: { readonly changes: readonly EntryChange[]; readonly entryAt: (seq: number) => Entry | undefined }) {
  if (changes.length === 0) return <p className="tl-muted">No entry entered, left or changed form.</p>
  const shown = changes.slice(0, CHANGES_SHOWN)
  return (
    <>
      <ul className="tl-block-list" data-testid="diff-changes">
        {shown.map((item) => {
          const entry = entryAt(item.seq)
          return (
            <li
              key={item.seq}
              className="tl-lab-item"
              data-change={item.change === 'entered' ? 'entering' : item.change === 'left' ? 'leaving' : 'changed'}
              data-seq={item.seq}
              data-testid="diff-change"
            >
              <span className={`tl-change tl-change-${item.change === 'entered' ? 'entering' : item.change === 'left' ? 'leaving' : 'changed'}`}>
                {changeWords[item.change]} #{item.seq}
              </span>
              <span className="tl-muted" title={item.reason}>
                {item.words}
              </span>
              <span className="tl-num">{signed(item.delta)}</span>
              <span className="tl-preview">{entry === undefined ? '(not in the thread)' : oneLine(entryPreview(entry))}</span>
            </li>
          )
        })}
      </ul>
      {changes.length > shown.length ? <p className="tl-muted">… and {changes.length - shown.length} more</p> : null}
    </>
  )
}
