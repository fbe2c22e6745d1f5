/** @threadlens/core/views: a thread as a reader sees it (conversation, reasoning), each entry's fate in a projection, a text debug view of a projection, and a text split into its tokens. */

export type { DebugViewOptions } from './debug-view'
export { debugView } from './debug-view'
export type { ConversationMessage } from './conversation-view'
export { conversationView } from './conversation-view'
export type { ReasoningItem } from './reasoning-view'
export { reasoningView } from './reasoning-view'
export type { EncodingName } from '../tokens/token-counter'
export { tokenSegments } from './token-segments'
export type { EntryFate, FateIndex, FateState } from './fates'
export { describeFate, dropReasonTexts, entryFates, reductionRules, sameFate } from './fates'
