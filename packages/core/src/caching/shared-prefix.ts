import type { ProjectedMessage, ProjectionResult } from '../project/types'

/** The leading messages two requests share byte for byte: what a provider's prompt cache can reuse. */
export interface SharedPrefix {
  /** How many leading messages are identical (as JSON) in both requests. */
  readonly messages: number
  /** Their tokens, as counted in the later request. */
  readonly tokens: number
}

const messageTexts = new WeakMap<ProjectedMessage, string>()

/** A message's JSON, kept per message object: comparing one request with many others serializes each message once. */
function messageText(message: ProjectedMessage): string {
  let text = messageTexts.get(message)
  if (text === undefined) messageTexts.set(message, (text = JSON.stringify(message)))
  return text
}

/** How much of `before`'s messages `after` repeats from the start, byte for byte, and those messages' tokens in `after`. */
export function sharedPrefix(before: ProjectionResult, after: ProjectionResult): SharedPrefix {
  const limit = Math.min(before.messages.length, after.messages.length)
  let messages = 0
  let tokens = 0
  while (
    messages < limit &&
    messageText(before.messages[messages] as ProjectedMessage) === messageText(after.messages[messages] as ProjectedMessage)
  ) {
    tokens += after.meta.messages[messages]?.tokens ?? 0
    messages++
  }
  return { messages, tokens }
}
