import { threadId as toThreadId } from '@threadlens/core/internal'
import { ThreadNotFoundError } from '../../errors'
import type { AttachmentRow } from '../../rows'
import type { ThreadlensDB } from './threadlens-db'
import { attachmentRow, infoOf } from '../../attachments/attachment-rows'
import { attachmentIdsOf, type AttachmentStore, bytesToBase64 } from '../../attachments/attachment-store'

/** The attachment store over the threadlens database. */
export function createAttachmentStore(db: ThreadlensDB, options: { readonly now?: () => number } = {}): AttachmentStore {
  const now = options.now ?? Date.now
  return {
    async put(rawThreadId, blob, putOptions = {}) {
      const threadId = toThreadId(rawThreadId)
      const row = await attachmentRow(blob, putOptions, now())
      return db.run('putAttachment', () =>
        db.transaction('rw', [db.threads, db.attachments, db.attachmentRefs, db.meta], async () => {
          await db.checkSentinel('putAttachment')
          if ((await db.threads.get(threadId)) === undefined) throw new ThreadNotFoundError(threadId, 'putAttachment')
          // Content-addressed: the same bytes are kept once, whoever stores them.
          if ((await db.attachments.get(row.id)) === undefined) await db.attachments.add(row)
          await db.attachmentRefs.put({ attachmentId: row.id, threadId })
          return infoOf(row)
        }),
      )
    },
    async get(id) {
      const row = await db.run('getAttachment', () => db.attachments.get(id))
      return row?.blob
    },
    async info(id) {
      const row = await db.run('getAttachment', () => db.attachments.get(id))
      return row === undefined ? undefined : infoOf(row)
    },
    async listForThread(threadId) {
      return db.run('listAttachments', async () => {
        const refs = await db.attachmentRefs.where('threadId').equals(threadId).toArray()
        const rows = await db.attachments.bulkGet(refs.map((ref) => ref.attachmentId))
        return rows.filter((row): row is AttachmentRow => row !== undefined).map(infoOf)
      })
    },
    async dataFor(result) {
      const ids = attachmentIdsOf(result)
      const data = new Map<string, string>()
      if (ids.length === 0) return () => undefined
      const rows = await db.run('readAttachments', () => db.attachments.bulkGet(ids))
      for (const row of rows) if (row !== undefined) data.set(row.id, bytesToBase64(new Uint8Array(await row.blob.arrayBuffer())))
      return (id) => data.get(id)
    },
  }
}

/**
 * Inside a thread's delete transaction: drops its references, then the bytes no other thread
 * uses. Bounded by the thread's own references.
 */
export async function deleteThreadAttachments(db: ThreadlensDB, threadId: string): Promise<void> {
  const refs = await db.attachmentRefs.where('threadId').equals(threadId).toArray()
  if (refs.length === 0) return
  await db.attachmentRefs.where('threadId').equals(threadId).delete()
  for (const { attachmentId } of refs) {
    const others = await db.attachmentRefs.where('[attachmentId+threadId]').between([attachmentId, ''], [attachmentId, '\uffff']).count()
    if (others === 0) await db.attachments.delete(attachmentId)
  }
}
