import { z } from 'zod'
import { parseOptions } from '../parse-options'

/** Checked before anything is parsed. */
export interface ImportLimits {
  /** Largest input accepted, in UTF-8 bytes. Default: 32 MiB. */
  readonly maxBytes: number
  /** Largest single JSONL line, in UTF-8 bytes. Default: 4 MiB. */
  readonly maxLineBytes: number
  /** Most entries (or messages) accepted. Default: 200,000. */
  readonly maxEntries: number
}

export const defaultImportLimits: ImportLimits = {
  maxBytes: 32 * 1024 * 1024,
  maxLineBytes: 4 * 1024 * 1024,
  maxEntries: 200_000,
}

const positive = z.number().int().positive()

export const importLimitsSchema = z.strictObject({
  maxBytes: positive.exactOptional(),
  maxLineBytes: positive.exactOptional(),
  maxEntries: positive.exactOptional(),
})

export function resolveImportLimits(limits: Partial<ImportLimits> | undefined): ImportLimits {
  return { ...defaultImportLimits, ...parseOptions(importLimitsSchema, limits ?? {}, 'import limits') }
}
