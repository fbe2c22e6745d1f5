import { checkForkPoint, forkCopies, int, object, optional, string, threadId as toThreadId } from '@threadlens/core/internal'
import { toThreadRecord, type ThreadRecord, type ThreadRow } from '../rows'
import { parseOptions } from '../parse-options'
import { appendedRow } from './appended-row'
import type { ThreadBackend } from './thread-backend'
import { newThreadRow, recordFieldsOf, titleReader } from './thread-record'
import type { ForkThreadOptions } from './thread-store'

export const forkOptionsReader = object<ForkThreadOptions>({
  atSeq: int({ min: 0 }),
  id: optional(string()),
  title: optional(titleReader),
})

/** What forking needs from the store's resolved options. */
interface ForkSettings {
  readonly now: () => number
  readonly createId: () => string
}

/** `ThreadStore.fork`: a new thread holding copies of the parent's entries up to `atSeq`, written in one step. */
export async function forkThread(
  backend: ThreadBackend,
  settings: ForkSettings,
  rawThreadId: string,
  forkOptions: ForkThreadOptions,
): Promise<ThreadRecord> {
  const { now, createId } = settings
  const parsed = parseOptions(forkOptionsReader, forkOptions, 'fork options')
  const parentId = toThreadId(rawThreadId)
  const childId = toThreadId(parsed.id ?? createId())
  const time = now()
  const row = await backend.insertFrom(
    parentId,
    'fork',
    (parent) => {
      checkForkPoint(parsed.atSeq, parent.lastSeq)
      return parsed.atSeq
    },
    (parent, entries) => {
      const copies = forkCopies(entries, childId, createId)
      const child: ThreadRow = {
        ...appendedRow(newThreadRow(childId, { ...recordFieldsOf(parent), title: parsed.title ?? parent.title }, time), copies, time),
        parent: { threadId: parentId, atSeq: parsed.atSeq },
      }
      return { row: child, entries: copies }
    },
  )
  return toThreadRecord(row)
}
