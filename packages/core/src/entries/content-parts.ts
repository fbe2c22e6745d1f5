import { byKey, int, object, oneOf, optional, string, type Reader } from '../validation/readers'

/**
 * Where an image's or file's bytes are:
 * - `url`: an `https:`/`http:` URL the provider fetches, or a `data:` URL carrying the bytes
 *   (base64) inside the entry;
 * - `provider-file`: a file uploaded to a provider beforehand (OpenAI's `file_id`);
 * - `attachment`: bytes the store keeps once, outside the entry (content-addressed by `id`, the
 *   SHA-256 of the bytes as `sha256-<hex>`); core sees only the reference and its metadata.
 */
export type MediaSource =
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'provider-file'; readonly fileId: string }
  | { readonly type: 'attachment'; readonly id: string; readonly mediaType: string; readonly bytes: number }

export interface TextPart {
  readonly type: 'text'
  readonly text: string
}

export interface ImagePart {
  readonly type: 'image'
  readonly source: MediaSource
  /** OpenAI's `detail`; absent means the provider's default (`auto`). */
  readonly detail?: 'auto' | 'low' | 'high'
  /** Pixel size, when known: images are counted by it (unknown sizes count as the largest a provider bills). */
  readonly width?: number
  readonly height?: number
}

export interface FilePart {
  readonly type: 'file'
  readonly source: MediaSource
  readonly filename?: string
  /** Pages of a PDF, when known: documents are counted by it. */
  readonly pages?: number
}

/** One part of a message's content, in order. */
export type ContentPart = TextPart | ImagePart | FilePart

/** Attachment ids: the SHA-256 of the bytes, as the store computes them. */
export const attachmentIdPattern = /^sha256-[0-9a-f]{64}$/

const dimension = optional(int({ above: 0, max: 100_000 }))

export const mediaSourceReader: Reader<MediaSource> = byKey<MediaSource>('type', {
  url: object<{ type: 'url'; url: string }>({
    type: oneOf(['url']),
    url: string({ pattern: /^(https?:|data:)/i, patternRule: 'a media URL starts with https:, http: or data:' }),
  }),
  'provider-file': object<{ type: 'provider-file'; fileId: string }>({ type: oneOf(['provider-file']), fileId: string({ min: 1, max: 256 }) }),
  attachment: object<{ type: 'attachment'; id: string; mediaType: string; bytes: number }>({
    type: oneOf(['attachment']),
    id: string({ pattern: attachmentIdPattern, patternRule: 'an attachment id is sha256-<64 hex digits>' }),
    mediaType: string({ min: 3, max: 128 }),
    bytes: int({ min: 0 }),
  }),
})

export const textPartReader: Reader<TextPart> = object<TextPart>({ type: oneOf(['text']), text: string() })

export const contentPartReader: Reader<ContentPart> = byKey<ContentPart>('type', {
  text: textPartReader,
  image: object<ImagePart>({
    type: oneOf(['image']),
    source: mediaSourceReader,
    detail: optional(oneOf(['auto', 'low', 'high'])),
    width: dimension,
    height: dimension,
  }),
  file: object<FilePart>({
    type: oneOf(['file']),
    source: mediaSourceReader,
    filename: optional(string({ min: 1, max: 1024 })),
    pages: optional(int({ above: 0, max: 100_000 })),
  }),
})

/** Separates text parts in a message's `content` (its text as one string). */
export const PART_TEXT_SEPARATOR = '\n'

/**
 * A message's text when its content is given as parts: the text parts joined by a newline
 * (`PART_TEXT_SEPARATOR`), images and files left out. This is what `payload.content` holds beside
 * `payload.parts`, for everything that reads text (views, counting, summaries, search).
 */
export function partsText(parts: readonly ContentPart[]): string {
  let text = ''
  let first = true
  for (const part of parts) {
    if (part.type !== 'text') continue
    text += first ? part.text : PART_TEXT_SEPARATOR + part.text
    first = false
  }
  return text
}

/** A `data:` URL's media type and base64 payload; `undefined` for any other URL or a non-base64 data URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)?((?:;[^;,]*)*);base64,/i.exec(url)
  if (match === null) return undefined
  return { mediaType: (match[1] ?? 'application/octet-stream').toLowerCase(), data: url.slice(match[0].length) }
}

/** The media type of a source, when it can be known without fetching. */
export function mediaTypeOf(source: MediaSource): string | undefined {
  if (source.type === 'attachment') return source.mediaType
  if (source.type === 'url') return parseDataUrl(source.url)?.mediaType
  return undefined
}

/** The byte size of a source, when it can be known without fetching. */
export function byteSizeOf(source: MediaSource): number | undefined {
  if (source.type === 'attachment') return source.bytes
  if (source.type !== 'url') return undefined
  const data = parseDataUrl(source.url)?.data
  if (data === undefined) return undefined
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding)
}
