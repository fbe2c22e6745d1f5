import type { ContentPart, MessageEntry, MessagePayload } from '../entries/entry'
import { attachmentTokens, imageTokens } from '../parts/attachment-tokens'
import type { MessageInfo, PendingMessage, ProjectedMessage, Segment } from './types'

/** What a message sends of its parts: all of them, or all but the images a policy leaves out. */
export interface SentParts {
  readonly parts: readonly ContentPart[] | undefined
  /** Indexes (in the stored parts) of images left out. */
  readonly omittedImages: readonly number[]
  /** Tokens the left-out images would have cost (as `messageTokens` counted them). */
  readonly omittedTokens: number
  /** Tokens of the images and files that are sent. */
  readonly attachmentTokens: number
}

const noParts: SentParts = { parts: undefined, omittedImages: [], omittedTokens: 0, attachmentTokens: 0 }

/** The parts a message sends; `omitImages` leaves its images out (`policy.keepImagesTurns`). */
export function sentParts(entry: MessageEntry, omitImages: boolean): SentParts {
  const parts = entry.payload.parts
  if (parts === undefined) return noParts
  if (!omitImages || !parts.some((part) => part.type === 'image'))
    return { parts, omittedImages: [], omittedTokens: 0, attachmentTokens: attachmentTokens(parts) }
  const kept: ContentPart[] = []
  const omittedImages: number[] = []
  let omittedTokens = 0
  parts.forEach((part, position) => {
    if (part.type !== 'image') {
      kept.push(part)
      return
    }
    omittedImages.push(position)
    // One framing token per part, as `messageTokens` counts it.
    omittedTokens += 1 + imageTokens(part)
  })
  // A message of images only goes as its (empty) text: providers refuse an empty list of parts.
  return { parts: kept.length === 0 ? undefined : kept, omittedImages, omittedTokens, attachmentTokens: attachmentTokens(kept) }
}

/**
 * A stored message (its payload and the parts it sends) or a pending one as the model sees it: its
 * name, the parts, and an assistant's `refusal` (from a stored message only).
 */
export function projectedMessage(
  { role, content, name }: MessagePayload | PendingMessage,
  parts: readonly ContentPart[] | undefined,
  refusal?: string,
): ProjectedMessage {
  const message: { role: typeof role; content: string; name?: string; parts?: readonly ContentPart[]; refusal?: string } = { role, content }
  if (name !== undefined) message.name = name
  if (parts !== undefined) message.parts = parts
  if (refusal !== undefined && role === 'assistant') message.refusal = refusal
  return message as ProjectedMessage
}

/** The meta record of a projected message, with its attachment share when it has one. */
export function messageInfo(
  segment: Segment,
  tokens: number,
  seqs: readonly number[],
  sent: Pick<SentParts, 'attachmentTokens' | 'omittedImages'>,
): MessageInfo {
  const info: { segment: Segment; tokens: number; seqs: readonly number[]; attachmentTokens?: number; omittedImages?: readonly number[] } = {
    segment,
    tokens,
    seqs,
  }
  if (sent.attachmentTokens > 0) info.attachmentTokens = sent.attachmentTokens
  if (sent.omittedImages.length > 0) info.omittedImages = sent.omittedImages
  return info
}
