import type { ThreadId } from '@threadlens/core/internal'
import { attachmentLines } from '../attachments/attachment-lines'
import { toThreadRecord } from '../rows'
import type { UnreadableEntryError } from '../errors'
import { referencedAttachmentIds, serializeThread } from '../transfer/thread-file-format'
import type { ThreadBackend } from './thread-backend'
import { reportUnreadable } from './unreadable-entry'

/** `ThreadStore.export`: the thread's record, entries and the attachments they use, as JSONL. */
export async function exportThread(
  backend: ThreadBackend,
  threadId: ThreadId,
  onUnreadableEntry: (error: UnreadableEntryError) => void,
): Promise<string> {
  const { row, entries } = await backend.read(threadId, 'export')
  reportUnreadable(entries, 'export', onUnreadableEntry)
  const attachments = await backend.readAttachments([...referencedAttachmentIds(entries)], 'export')
  return serializeThread(toThreadRecord(row), entries, await attachmentLines(attachments))
}
