import type { ProjectedMessage } from '../src/index'

/** The tool-pairing shape of an output message, whoever produced it. */
export type PairingItem = { readonly toolCallIds: readonly string[] } | { readonly answers: string } | null

/**
 * Tool messages whose assistant tool call is not earlier in the output, plus assistant tool calls
 * with no tool message answering them. Either one makes OpenAI and Anthropic reject the request.
 */
export function countOrphans(items: readonly PairingItem[]): number {
  const called = new Set<string>()
  const answered = new Set<string>()
  let orphans = 0
  for (const item of items) {
    if (item === null) continue
    if ('answers' in item) {
      if (called.has(item.answers)) answered.add(item.answers)
      else orphans++
    } else for (const id of item.toolCallIds) called.add(id)
  }
  for (const id of called) if (!answered.has(id)) orphans++
  return orphans
}

export function projectedPairing(message: ProjectedMessage): PairingItem {
  if (message.role === 'tool') return { answers: message.toolCallId }
  if (message.role === 'assistant' && message.toolCalls !== undefined) return { toolCallIds: message.toolCalls.map((call) => call.id) }
  return null
}
