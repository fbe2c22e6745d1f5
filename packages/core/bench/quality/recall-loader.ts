import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { definePolicy, type PolicyOptions } from '../../src/index'

// Recall (older turns searched and brought back into the window) is being added to core: a policy
// option `recall` and `createRecallIndex()` from src/recall/index.ts. Until that file exists the
// bench runs without the recall rows; nothing here names its types, so it typechecks either way.

/** Whatever `createRecallIndex()` returns: handed to project() as `recall`, one per thread. */
export type RecallSearcher = object

export interface Recall {
  createIndex(): RecallSearcher
  /** Policy options that turn recall on with its defaults: spread into definePolicy or a preset. */
  readonly options: PolicyOptions
}

const recallModule = new URL('../../src/recall/index.ts', import.meta.url)

export async function loadRecall(): Promise<{ recall: Recall } | { missing: string }> {
  if (!existsSync(fileURLToPath(recallModule))) return { missing: 'src/recall/index.ts does not exist yet' }
  try {
    const specifier: string = recallModule.href
    const module = (await import(specifier)) as { createRecallIndex?: () => RecallSearcher }
    const createIndex = module.createRecallIndex
    if (typeof createIndex !== 'function') return { missing: 'src/recall/index.ts has no createRecallIndex()' }
    // Not in PolicyOptions until the recall change lands; definePolicy rejects options it does not
    // know, so try it here once rather than fail on every question.
    const options = { recall: {} } as PolicyOptions
    definePolicy({ maxInputTokens: 4096, reserveOutputTokens: 0, ...options })
    createIndex()
    return { recall: { createIndex: () => createIndex(), options } }
  } catch (error) {
    return { missing: `loading recall failed: ${error instanceof Error ? error.message : String(error)}` }
  }
}
