// The request checkers of both providers, one file each; imported from here by the exports and tests.
export { openAIChatProblems } from './openai-chat-rules'
export { anthropicMessagesProblems } from './anthropic-messages-rules'
