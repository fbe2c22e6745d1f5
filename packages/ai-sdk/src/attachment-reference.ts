import { parseDataUrl } from '@threadlens/core/parts'
import type { AttachmentInfo } from '@threadlens/store/attachments'

// How a stored UI file part names bytes kept in the attachment store (kept apart from the code that
// moves the bytes, which loads only for chats that have a store).

const referencePattern = /^threadlens-attachment:(sha256-[0-9a-f]{64})\/(\d+)\/(data:[^,]*,)$/

/** The URL a stored UI file part holds instead of a `data:` URL whose bytes the store keeps. */
export function attachmentReference(info: Pick<AttachmentInfo, 'id' | 'bytes'>, header: string): string {
  return `threadlens-attachment:${info.id}/${info.bytes}/${header}`
}

/** A stored file part's reference: the attachment, and the `data:` URL's header (`data:image/png;base64,`). */
export function parseAttachmentReference(url: string): { id: string; bytes: number; header: string; mediaType: string } | undefined {
  const match = referencePattern.exec(url)
  if (match === null) return undefined
  const header = match[3] as string
  return { id: match[1] as string, bytes: Number(match[2]), header, mediaType: parseDataUrl(header)?.mediaType ?? 'application/octet-stream' }
}
