import { InvalidAttachmentError } from '../errors'
import type { AttachmentRow } from '../rows'
import { attachmentIdOf, type AttachmentInfo, maxAttachmentBytes, type PutAttachmentOptions } from './attachment-store'

// What both backends store for an attachment, and what they report about it.

/** Validates a blob and computes its row (outside any transaction: hashing is async work). */
export async function attachmentRow(blob: Blob, options: PutAttachmentOptions, createdAt: number): Promise<AttachmentRow> {
  if (!(blob instanceof Blob)) throw new InvalidAttachmentError('expected a Blob (or File)')
  const mediaType = options.mediaType ?? blob.type
  if (mediaType === '' || !/^[a-z]+\/[a-z0-9.+-]+$/i.test(mediaType)) {
    throw new InvalidAttachmentError(`no usable media type (got ${JSON.stringify(mediaType)}): pass options.mediaType, e.g. 'image/png'`)
  }
  if (blob.size > maxAttachmentBytes)
    throw new InvalidAttachmentError(`${blob.size} bytes, over the ${maxAttachmentBytes}-byte limit (maxAttachmentBytes)`)
  for (const [field, value] of [
    ['width', options.width],
    ['height', options.height],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0 || value > 100_000))
      throw new InvalidAttachmentError(`${field} must be a positive whole number of pixels, got ${value}`)
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
