/**
 * @threadlens/core/parts: messages that are more than text: content parts (images, files), what
 * they cost by each provider's rules, and the one tool-name rule with its reversible mapping for
 * names stored before it.
 */

export type { ContentPart, TextPart, ImagePart, FilePart, MediaSource } from '../entries/content-parts'
export { partsText, parseDataUrl, mediaTypeOf, byteSizeOf, attachmentIdPattern, PART_TEXT_SEPARATOR } from '../entries/content-parts'
export type { AttachmentTokenRule } from './attachment-tokens'
export {
  attachmentTokens,
  imageTokens,
  fileTokens,
  openAIImageTokens,
  anthropicImageTokens,
  OPENAI_LOW_DETAIL_IMAGE_TOKENS,
  OPENAI_IMAGE_TILE_TOKENS,
  ANTHROPIC_IMAGE_MAX_EDGE,
  ANTHROPIC_IMAGE_MAX_TOKENS,
  PDF_PAGE_TOKENS,
  PDF_BYTES_PER_ASSUMED_PAGE,
} from './attachment-tokens'
export { toolNamePattern, isValidToolName, assertToolName } from '../entries/tool-name'
export type { ProviderToolNames } from './provider-tool-names'
export { providerToolNames, toolNameMapping } from './provider-tool-names'
export type { FormatOptions, OpenAIChatTextPart, OpenAIChatImagePart, OpenAIChatFilePart, OpenAIChatUserPart } from '../formats/openai-chat'
export type { AnthropicImageBlock, AnthropicDocumentBlock } from '../formats/anthropic-messages'
export type { ProjectedMessageExtras } from '../project/types'
export { InvalidToolNameError, AttachmentUnavailableError } from '../errors/threadlens-error'
