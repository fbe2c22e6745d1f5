import type { ProjectionResult } from '@threadlens/core'
import type { ImagePart, FilePart, MediaSource } from '@threadlens/core/parts'

/** An attachment as stored: its reference (what entries hold) and its metadata. */
export interface AttachmentInfo {
  /** `sha256-<64 hex digits>` of the bytes: the same bytes are stored once. */
  readonly id: string
  readonly mediaType: string
  readonly bytes: number
  readonly width?: number
  readonly height?: number
}

export interface PutAttachmentOptions {
  /** Default: the Blob's own `type`; one of the two is required. */
  readonly mediaType?: string
  /** Pixel size of an image: images are counted by it. Default: unknown (counted as the largest a provider bills). */
  readonly width?: number
  readonly height?: number
}

/**
 * Where images and files live: each one's bytes once (a Blob in IndexedDB, content-addressed),
 * referenced by the entries of the threads that use it, and deleted with the last of them.
 */
export interface AttachmentStore {
  /**
   * Keeps `blob` for `threadId` (which must exist) and returns its reference; the same bytes
   * stored again (by any thread) are not stored twice. Throws `InvalidAttachmentError` for a blob
   * over `maxAttachmentBytes` or without a media type.
   */
  put(threadId: string, blob: Blob, options?: PutAttachmentOptions): Promise<AttachmentInfo>
  /** The bytes, or `undefined` when no thread uses them (any more). */
  get(id: string): Promise<Blob | undefined>
  /** The metadata, or `undefined`. */
  info(id: string): Promise<AttachmentInfo | undefined>
  /** The attachments a thread uses. */
  listForThread(threadId: string): Promise<AttachmentInfo[]>
  /**
   * The bytes (base64) of every store-held attachment a projection sends, as the lookup the formats
   * take (`toOpenAIChat(result, { attachmentData })`): read once before the request is built.
   */
  dataFor(result: ProjectionResult): Promise<(id: string) => string | undefined>
}

/** Largest attachment the store keeps: Anthropic takes PDFs up to 32 MB. */
export const maxAttachmentBytes = 32 * 1024 * 1024

/** A message part referencing a stored image. */
export function imagePart(info: AttachmentInfo, detail?: ImagePart['detail']): ImagePart {
  const part: { -readonly [K in keyof ImagePart]: ImagePart[K] } = { type: 'image', source: attachmentSource(info) }
  if (detail !== undefined) part.detail = detail
  if (info.width !== undefined) part.width = info.width
  if (info.height !== undefined) part.height = info.height
  return part
}

/** A message part referencing a stored file. */
export function filePart(info: AttachmentInfo, filename?: string, pages?: number): FilePart {
  const part: { -readonly [K in keyof FilePart]: FilePart[K] } = { type: 'file', source: attachmentSource(info) }
  if (filename !== undefined) part.filename = filename
  if (pages !== undefined) part.pages = pages
  return part
}

function attachmentSource(info: AttachmentInfo): MediaSource {
  return { type: 'attachment', id: info.id, mediaType: info.mediaType, bytes: info.bytes }
}

/** The ids of store-held attachments a projection sends. */
export function attachmentIdsOf(result: ProjectionResult): string[] {
  const ids = new Set<string>()
  for (const message of result.messages) {
    if (message.role === 'tool') continue
    for (const part of message.parts ?? []) if (part.type !== 'text' && part.source.type === 'attachment') ids.add(part.source.id)
  }
  return [...ids]
}

/** `sha256-<hex>` of some bytes (Web Crypto: browsers and Node alike). */
export async function attachmentIdOf(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return `sha256-${hex}`
}

/** Base64 of some bytes, in chunks (a spread of a large array would overflow the stack). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000))
  return btoa(binary)
}

/** The bytes of base64 text; throws on text that is not base64. */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
