import type { Entry } from '@threadlens/core'
import type { ThreadRow } from '../rows'
import { foldThreadFacts } from '@threadlens/core/internal'
import { exportedBytes } from './thread-limits'

/** The row after entries were appended to it. */
export function appendedRow(row: ThreadRow, entries: readonly Entry[], now: number): ThreadRow {
  if (entries.length === 0) return row
  const lastSeq = row.lastSeq + entries.length
  return {
    ...row,
    lastSeq,
    entryCount: lastSeq + 1,
    updatedAt: Math.max(row.updatedAt, now),
    facts: foldThreadFacts(row.facts, entries),
    bytes: row.bytes + exportedBytes(entries),
  }
}
