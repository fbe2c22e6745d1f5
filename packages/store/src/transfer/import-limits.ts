import { entryLimits } from '@threadlens/core'
import { int, object, optional } from '@threadlens/core/internal'
import { parseOptions } from '../parse-options'

/** Checked before anything is parsed. */
export interface ImportLimits {
  /**
   * Largest input accepted, in UTF-8 bytes. Default: 256 MiB (about half the longest string a
   * browser's JavaScript engine can hold), so any thread export can produce imports again.
   */
  readonly maxBytes: number
  /**
   * Largest single JSONL line, in UTF-8 bytes. Default: `entryLimits.maxEntryBytes` (4 MiB) plus
   * `entryLimits.tokenCountBytes` (64 KiB) for the stored token counts, so every entry append
   * accepts fits on the line export writes for it.
   */
  readonly maxLineBytes: number
  /** Most entries (or messages) accepted. Default: 200,000. */
  readonly maxEntries: number
}

export const defaultImportLimits: ImportLimits = {
  maxBytes: 256 * 1024 * 1024,
  maxLineBytes: entryLimits.maxEntryBytes + entryLimits.tokenCountBytes,
  maxEntries: 200_000,
}

const positive = optional(int({ above: 0 }))

export const importLimitsReader = object<Partial<ImportLimits>>({ maxBytes: positive, maxLineBytes: positive, maxEntries: positive })

export function resolveImportLimits(limits: Partial<ImportLimits> | undefined): ImportLimits {
  return { ...defaultImportLimits, ...parseOptions(importLimitsReader, limits ?? {}, 'import limits') }
}
