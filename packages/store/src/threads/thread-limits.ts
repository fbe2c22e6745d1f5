import { type Entry } from '@threadlens/core'
import { utf8Length } from '@threadlens/core/internal'
import { toThreadRecord, type ThreadRow } from '../rows'
import { ThreadFullError } from '../errors'
import type { ImportLimits } from '../transfer/import-limits'
import { threadHeader } from '../transfer/thread-file-format'

/** UTF-8 bytes these entries take in an export: each on its own line. */
export function exportedBytes(entries: readonly Entry[]): number {
  let bytes = 0
  for (const entry of entries) bytes += utf8Length(JSON.stringify(entry)) + 1
  return bytes
}

/**
 * Refuses a row (as it would be after an append or an update) whose export an import with
 * `limits` would refuse: one set of numbers for what the store accepts and what import accepts.
 */
export function checkThreadLimits(row: ThreadRow, limits: ImportLimits): void {
  if (row.entryCount > limits.maxEntries) throw new ThreadFullError(row.id, 'entries', limits.maxEntries)
  const headerBytes = utf8Length(JSON.stringify(threadHeader(toThreadRecord(row), row.entryCount))) + 1
  if (headerBytes + row.bytes > limits.maxBytes) throw new ThreadFullError(row.id, 'bytes', limits.maxBytes)
}
