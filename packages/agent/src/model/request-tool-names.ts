import { isValidToolName, providerToolNames, type ProviderToolNames } from '@threadlens/core/parts'
import type { ModelRequest, ModelStreamEvent } from './model-client'

/** The wire names of one request: its projection's tool names and its tool schemas', mapped alike. */
export function requestToolNames(request: Pick<ModelRequest, 'projection' | 'tools'>): ProviderToolNames {
  return providerToolNames(
    request.projection,
    request.tools.map((tool) => tool.name),
  )
}

/**
 * A reply's tool calls under the names the thread knows. A stand-in for a name stored before the
 * tool name rule maps back to it only while that name is still appendable, which it never is: such a
 * call keeps the stand-in (valid, and no tool of the session), so the session answers it as an
 * unknown tool instead of failing the append.
 */
export async function* withStoredToolNames(
  events: AsyncIterable<ModelStreamEvent>,
  toolNames: ProviderToolNames,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  if (toolNames.renamed.size === 0) {
    yield* events
    return
  }
  for await (const event of events) {
    if (event.type === 'tool-call-start' || event.type === 'tool-call') {
      const stored = toolNames.fromProvider(event.name)
      yield isValidToolName(stored) ? { ...event, name: stored } : event
    } else yield event
  }
}
