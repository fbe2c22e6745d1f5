import { threadId as toThreadId } from '@threadlens/core/internal'
import { InvalidAttachmentError, ThreadNotFoundError } from '../errors'
import type { AttachmentRow } from '../database/rows'
import type { ThreadlensDB } from '../database/threadlens-db'
import {
  attachmentIdOf,
  attachmentIdsOf,
  type AttachmentInfo,
  type AttachmentStore,
  bytesToBase64,
  maxAttachmentBytes,
  type PutAttachmentOptions,
} from './attachment-store'

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

/** Validates a blob and computes its row (outside any transaction: hashing is async work). */
export async function attachmentRow(blob: Blob, options: PutAttachmentOptions, createdAt: number): Promise<AttachmentRow> {
  if (!(blob instanceof Blob)) throw new InvalidAttachmentError('expected a Blob (or File)')
  const mediaType = options.mediaType ?? blob.type
  if (mediaType === '' || !/^[a-z]+\/[a-z0-9.+-]+$/i.test(mediaType)) {
    throw new InvalidAttachmentError(`no usable media type (got ${JSON.stringify(mediaType)}): pass options.mediaType, e.g. 'image/png'`)
  }
  if (blob.size > maxAttachmentBytes) throw new InvalidAttachmentError(`${blob.size} bytes, over the ${maxAttachmentBytes}-byte limit (maxAttachmentBytes)`)
  for (const [field, value] of [['width', options.width], ['height', options.height]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0 || value > 100_000)) throw new InvalidAttachmentError(`${field} must be a positive whole number of pixels, got ${value}`)
  }
  const bytes = await blob.arrayBuffer()
  const row: { -readonly [K in keyof AttachmentRow]: AttachmentRow[K] } = {
    id: await attachmentIdOf(bytes),
    // A fresh Blob: the caller's File (with its name and lastModified) is not what is kept.
    blob: new Blob([bytes], { type: mediaType.toLowerCase() }),
    mediaType: mediaType.toLowerCase(),
    bytes: blob.size,
    createdAt,
  }
  if (options.width !== undefined) row.width = options.width
  if (options.height !== undefined) row.height = options.height
  return row
}

export function infoOf(row: AttachmentRow): AttachmentInfo {
  const info: { -readonly [K in keyof AttachmentInfo]: AttachmentInfo[K] } = { id: row.id, mediaType: row.mediaType, bytes: row.bytes }
  if (row.width !== undefined) info.width = row.width
  if (row.height !== undefined) info.height = row.height
  return info
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
