import type { TokenCounter } from '@threadlens/core'
import { object, threadId as toThreadId } from '@threadlens/core/internal'
import { parseOptions } from '../parse-options'
import type { ImportLimits } from '../transfer/import-limits'
import { importEntryError, parseImportInput } from '../transfer/thread-jsonl'
import { importedAttachmentRows } from '../attachments/attachment-lines'
import { appendedRow } from './appended-row'
import { assignSeqs, prepareEntries } from './prepare-entries'
import type { ThreadBackend } from './thread-backend'
import { newThreadRow, recordFieldReaders } from './thread-record'
import type { ImportedThread, ImportInput, ImportThreadOptions } from './thread-store'

export const importOptionsReader = object<ImportThreadOptions>({
  title: recordFieldReaders.title,
  metadata: recordFieldReaders.metadata,
})

/** What importing needs from the store's resolved options. */
interface ImportSettings {
  readyCounters(): readonly TokenCounter[]
  readonly now: () => number
  readonly createId: () => string
  readonly importLimits: ImportLimits
}

/** `ThreadStore.import`: everything is validated and counted before the one write of a new thread. */
export async function importThread(
  backend: ThreadBackend,
  settings: ImportSettings,
  input: ImportInput,
  importOptions?: ImportThreadOptions,
): Promise<ImportedThread> {
  const { now, createId, importLimits } = settings
  const counters = settings.readyCounters()
  backend.assertWorking('import')
  const parsedOptions = parseOptions(importOptionsReader, importOptions ?? {}, 'import options')
  const parsed = await parseImportInput(input, importLimits)
  const threadId = toThreadId(createId())
  const time = now()
  const describeError = (error: unknown, offset: number): unknown => importEntryError(error, parsed, offset)
  const prepared = prepareEntries(parsed.inputs, { counters, now: time, createId, dropGivenTokens: true, describeError })
  const entries = assignSeqs(threadId, prepared, 0, { calls: new Set(), results: new Set() }, describeError, true)
  const fields = {
    ...parsed.fields,
    title: parsedOptions.title ?? parsed.fields.title,
    metadata: { ...parsed.fields.metadata, ...parsedOptions.metadata },
  }
  const attachments = await importedAttachmentRows(parsed, time)
  await backend.insert(appendedRow(newThreadRow(threadId, fields, time), entries, time), entries, 'import', attachments)
  return { threadId, changes: parsed.changes ?? [] }
}
