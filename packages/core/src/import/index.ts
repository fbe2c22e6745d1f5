/**
 * @threadlens/core/import: conversations kept elsewhere brought in as entries (an OpenAI Chat
 * Completions `messages` array), checked before anything is appended. Apart from the main entry
 * point because only apps that import transcripts need it.
 */

export type { FromOpenAIChatResult, ImportChange } from './from-openai-chat'
export { fromOpenAIChat, originalToolCallIds } from './from-openai-chat'
