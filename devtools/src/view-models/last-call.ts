import type { ProjectionMeta } from '@threadlens/core'
import { callCost, duration, formatCost, rowFigures, type CallFigures, type TraceRow } from './call-trace-rows'
import type { LeftOutGroup } from './left-out'
import { formatNumber, formatPercent } from './meter-parts'

/** One fact of the last-call card: its text, and whether it is good news, a warning or a problem. */
export interface LastCallFact {
  readonly id: 'status' | 'sent' | 'left-out' | 'cache' | 'cost' | 'latency'
  readonly text: string
  readonly tone: 'ok' | 'warn' | 'danger' | 'plain'
}

/** What the card reads: the newest attempt, its record, and (once replayed) what it sent and left out. */
export interface LastCallInput {
  readonly row: TraceRow
  readonly meta: ProjectionMeta | undefined
  readonly leftOut: readonly LeftOutGroup[] | undefined
  /** A reason in words, for the main reason things were left out (plain-words). */
  readonly reasonText: (group: LeftOutGroup) => string
}

function statusFact(row: TraceRow, record: CallFigures | undefined): LastCallFact {
  const tries = row.kind === 'attempt' ? row.attempt.attempt : (record?.attempts ?? 1)
  const retried = tries > 1 ? ` after ${tries - 1} ${tries === 2 ? 'retry' : 'retries'}` : ''
  if (row.kind === 'attempt') {
    const error = row.attempt.error
    const why = error === undefined ? '' : `: ${error.status === undefined ? error.name : `HTTP ${error.status}`} ${error.message}`
    if (row.status === 'aborted') return { id: 'status', text: `stopped before it answered${retried}`, tone: 'warn' }
    if (row.status === 'retried') return { id: 'status', text: `failed, retrying${why}`, tone: 'warn' }
    return { id: 'status', text: `failed${retried}${why}`, tone: 'danger' }
  }
  if (row.status === 'aborted') return { id: 'status', text: `cut short${retried}`, tone: 'warn' }
  return { id: 'status', text: `answered${retried}`, tone: tries > 1 ? 'warn' : 'ok' }
}

function cacheFact(record: CallFigures | undefined): LastCallFact {
  const read = record?.cachedInputTokens
  const written = record?.cacheWriteInputTokens
  if (read === undefined && written === undefined) return { id: 'cache', text: 'cache: not reported', tone: 'plain' }
  const wrote = written === undefined || written === 0 ? '' : `, ${formatNumber(written)} written`
  if (read !== undefined && read > 0) return { id: 'cache', text: `cache hit: ${formatNumber(read)} tokens read${wrote}`, tone: 'ok' }
  return { id: 'cache', text: `cache miss${wrote === '' ? '' : `: ${wrote.slice(2)}`}`, tone: 'warn' }
}

function leftOutFact(groups: readonly LeftOutGroup[], reasonText: (group: LeftOutGroup) => string): LastCallFact {
  const absent = groups.filter((group) => group.sent === 'no')
  const shown = absent.length > 0 ? absent : groups
  if (shown.length === 0) return { id: 'left-out', text: 'nothing left out', tone: 'ok' }
  const count = shown.reduce((sum, group) => sum + group.count, 0)
  const main = [...shown].sort((a, b) => (b.tokens ?? b.count) - (a.tokens ?? a.count))[0] as LeftOutGroup
  const verb = absent.length > 0 ? 'left out' : 'shortened'
  return {
    id: 'left-out',
    text: `${formatNumber(count)} ${count === 1 ? 'entry' : 'entries'} ${verb}, mostly ${reasonText(main)}`,
    tone: absent.length > 0 ? 'warn' : 'plain',
  }
}

/** The newest call in facts, in the order the card shows them. */
export function lastCallFacts({ row, meta, leftOut, reasonText }: LastCallInput): LastCallFact[] {
  const record = rowFigures(row)
  const facts: LastCallFact[] = [statusFact(row, record)]
  if (meta !== undefined) {
    const share = meta.budget.input > 0 ? ` (${formatPercent(meta.tokens.total / meta.budget.input)})` : ''
    facts.push({
      id: 'sent',
      text: `sent ${formatNumber(meta.messages.length)} messages, ${formatNumber(meta.tokens.total)} of ${formatNumber(meta.budget.input)} tokens${share}`,
      tone: 'plain',
    })
  } else if (record?.sentMessages !== undefined && record.localInputTokens !== undefined) {
    facts.push({
      id: 'sent',
      text: `sent ${formatNumber(record.sentMessages)} messages, ${formatNumber(record.localInputTokens)} tokens`,
      tone: 'plain',
    })
  }
  if (leftOut !== undefined) facts.push(leftOutFact(leftOut, reasonText))
  facts.push(cacheFact(record))
  const cost = callCost(record)
  if (cost !== undefined) facts.push({ id: 'cost', text: formatCost(cost), tone: 'plain' })
  if (record?.durationMs !== undefined) {
    facts.push({
      id: 'latency',
      text:
        record.firstTokenMs === undefined
          ? `took ${duration(record.durationMs)}`
          : `first token ${duration(record.firstTokenMs)}, took ${duration(record.durationMs)}`,
      tone: 'plain',
    })
  }
  return facts
}
