import type { ToolCallEvent } from '../model/model-client'

/**
 * A reply's tool calls with ids unique in the thread: some servers number calls `call_0`, `call_1`
 * afresh in every reply, or repeat an id within one reply. A taken id gets a `_2`, `_3`… suffix;
 * ids only pair a call with its result inside a request, so the provider never needs the old one.
 */
export function uniqueToolCallIds(calls: readonly ToolCallEvent[], taken: (toolCallId: string) => boolean): ToolCallEvent[] {
  const used = new Set<string>()
  return calls.map((call) => {
    let id = call.toolCallId
    for (let suffix = 2; taken(id) || used.has(id); suffix += 1) id = `${call.toolCallId}_${suffix}`
    used.add(id)
    return id === call.toolCallId ? call : { ...call, toolCallId: id }
  })
}
