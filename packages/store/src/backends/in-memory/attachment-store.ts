import { threadId as toThreadId } from '@threadlens/core/internal'
import type { AttachmentRow } from '../../rows'
import { attachmentIdsOf, type AttachmentStore, bytesToBase64 } from '../../attachments/attachment-store'
import { attachmentRow, infoOf } from '../../attachments/attachment-rows'

/**
 * Attachments in memory, for the stores used when IndexedDB is unavailable: same API, lost on
 * reload like everything else there. `forgetThread` is what deleting a thread calls.
 */
export interface MemoryAttachmentStore extends AttachmentStore {
  /** Drops a deleted thread's references, and the bytes no other thread uses. */
  forgetThread(threadId: string): void
  /** Lets `threadId` use attachments it got another way (a fork's copies, an import). */
  share(threadId: string, rows: readonly AttachmentRow[]): void
  /** The stored rows of these ids (those that exist). */
  rows(ids: Iterable<string>): AttachmentRow[]
}

export function createMemoryAttachmentStore(options: { readonly now?: () => number } = {}): MemoryAttachmentStore {
  const now = options.now ?? Date.now
  const rows = new Map<string, AttachmentRow>()
  const threadsOf = new Map<string, Set<string>>()
  return {
    async put(rawThreadId, blob, putOptions = {}) {
      const threadId = toThreadId(rawThreadId)
      const row = await attachmentRow(blob, putOptions, now())
      if (!rows.has(row.id)) rows.set(row.id, row)
      let users = threadsOf.get(row.id)
      if (users === undefined) threadsOf.set(row.id, (users = new Set()))
      users.add(threadId)
      return infoOf(rows.get(row.id) as AttachmentRow)
    },
    async get(id) {
      return rows.get(id)?.blob
    },
    async info(id) {
      const row = rows.get(id)
      return row === undefined ? undefined : infoOf(row)
    },
    async listForThread(threadId) {
      return [...threadsOf].filter(([, users]) => users.has(threadId)).map(([id]) => infoOf(rows.get(id) as AttachmentRow))
    },
    async dataFor(result) {
      const data = new Map<string, string>()
      for (const id of attachmentIdsOf(result)) {
        const row = rows.get(id)
        if (row !== undefined) data.set(id, bytesToBase64(new Uint8Array(await row.blob.arrayBuffer())))
      }
      return (id) => data.get(id)
    },
    share(threadId, shared) {
      for (const row of shared) {
        if (!rows.has(row.id)) rows.set(row.id, row)
        let users = threadsOf.get(row.id)
        if (users === undefined) threadsOf.set(row.id, (users = new Set()))
        users.add(threadId)
      }
    },
    rows(ids) {
      return [...ids].flatMap((id) => {
        const row = rows.get(id)
        return row === undefined ? [] : [row]
      })
    },
    forgetThread(threadId) {
      for (const [id, users] of threadsOf) {
        users.delete(threadId)
        if (users.size === 0) {
          threadsOf.delete(id)
          rows.delete(id)
        }
      }
    },
  }
}
