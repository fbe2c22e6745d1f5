import { byteSizeOf, type ContentPart, type FilePart, type ImagePart, mediaTypeOf } from '../entries/content-parts'

/** Whose documented rules count an image or file; `largest` takes the higher of the two (the default: never under either). */
export type AttachmentTokenRule = 'openai' | 'anthropic' | 'largest'

/** OpenAI (GPT-4o family, `detail: 'low'`): a fixed cost whatever the size. */
export const OPENAI_LOW_DETAIL_IMAGE_TOKENS = 85
/** OpenAI high detail: per 512-px tile after scaling, plus `OPENAI_LOW_DETAIL_IMAGE_TOKENS` once. */
export const OPENAI_IMAGE_TILE_TOKENS = 170
/** Anthropic scales images down past this long edge (and past about 1,600 tokens). */
export const ANTHROPIC_IMAGE_MAX_EDGE = 1568
/** Anthropic's documented ceiling of one image: about 1,600 tokens. */
export const ANTHROPIC_IMAGE_MAX_TOKENS = 1600
/**
 * One PDF page: Anthropic documents 1,500–3,000 text tokens per page plus the page as an image,
 * and OpenAI sends text and a page image alike; the upper figures, so budgets hold.
 */
export const PDF_PAGE_TOKENS = 3000 + ANTHROPIC_IMAGE_MAX_TOKENS
/** Pages assumed per this many bytes of a PDF whose page count is not known (at least one). */
export const PDF_BYTES_PER_ASSUMED_PAGE = 50_000

/**
 * OpenAI's tile rule (GPT-4o family): `low` costs 85; otherwise the image is scaled to fit 2048×2048,
 * then so its shortest side is at most 768, and each 512-px tile costs 170, plus 85. An unknown
 * size counts as the largest such image (768×2048: 8 tiles, 1,445 tokens).
 */
export function openAIImageTokens(width: number | undefined, height: number | undefined, detail: ImagePart['detail'] = 'auto'): number {
  if (detail === 'low') return OPENAI_LOW_DETAIL_IMAGE_TOKENS
  if (width === undefined || height === undefined) return OPENAI_LOW_DETAIL_IMAGE_TOKENS + 8 * OPENAI_IMAGE_TILE_TOKENS
  let scaledWidth = width
  let scaledHeight = height
  const fit = Math.min(1, 2048 / Math.max(scaledWidth, scaledHeight))
  scaledWidth *= fit
  scaledHeight *= fit
  const shortest = Math.min(1, 768 / Math.min(scaledWidth, scaledHeight))
  scaledWidth *= shortest
  scaledHeight *= shortest
  const tiles = Math.ceil(scaledWidth / 512) * Math.ceil(scaledHeight / 512)
  return OPENAI_LOW_DETAIL_IMAGE_TOKENS + tiles * OPENAI_IMAGE_TILE_TOKENS
}

/**
 * Anthropic's estimate: width × height / 750 after scaling the long edge down to 1568, at most
 * about 1,600. An unknown size counts as the ceiling.
 */
export function anthropicImageTokens(width: number | undefined, height: number | undefined): number {
  if (width === undefined || height === undefined) return ANTHROPIC_IMAGE_MAX_TOKENS
  const scale = Math.min(1, ANTHROPIC_IMAGE_MAX_EDGE / Math.max(width, height))
  return Math.min(ANTHROPIC_IMAGE_MAX_TOKENS, Math.ceil((width * scale * (height * scale)) / 750))
}

/** An image's tokens under `rule`. */
export function imageTokens(part: ImagePart, rule: AttachmentTokenRule = 'largest'): number {
  const openAI = openAIImageTokens(part.width, part.height, part.detail)
  const anthropic = anthropicImageTokens(part.width, part.height)
  return rule === 'openai' ? openAI : rule === 'anthropic' ? anthropic : Math.max(openAI, anthropic)
}

/**
 * A file's tokens (both providers read PDFs as text plus page images): `pages` × `PDF_PAGE_TOKENS`,
 * the page count estimated from the byte size when unknown (one page per 50 KB, at least one).
 * Text files count a token per 3 bytes (plain text runs about 4); unknown sizes count as one page.
 */
export function fileTokens(part: FilePart): number {
  const bytes = byteSizeOf(part.source)
  const mediaType = mediaTypeOf(part.source) ?? ''
  if (mediaType.startsWith('text/') && bytes !== undefined) return Math.ceil(bytes / 3)
  const pages = part.pages ?? (bytes === undefined ? 1 : Math.max(1, Math.ceil(bytes / PDF_BYTES_PER_ASSUMED_PAGE)))
  return pages * PDF_PAGE_TOKENS
}

/** The tokens of a message's images and files (text parts are counted as text). */
export function attachmentTokens(parts: readonly ContentPart[] | undefined, rule: AttachmentTokenRule = 'largest'): number {
  if (parts === undefined) return 0
  let tokens = 0
  for (const part of parts) {
    if (part.type === 'image') tokens += imageTokens(part, rule)
    else if (part.type === 'file') tokens += fileTokens(part)
  }
  return tokens
}
