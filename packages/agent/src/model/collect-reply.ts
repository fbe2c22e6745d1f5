import type { Usage } from '@threadlens/core/calls'
import type { ModelStreamEvent, StopReason, ToolCallEvent } from './model-client'

/** A whole reply, gathered from a stream. */
export interface ModelReply {
  readonly text: string
  readonly toolCalls: readonly ToolCallEvent[]
  /** `undefined` when the provider reported none. */
  readonly usage: Usage | undefined
  readonly stopReason: StopReason
  readonly rawStopReason: string | undefined
}

/**
 * Reads a stream to its end and returns the reply, for callers that need no streaming (a
 * summarizer, tests). Errors propagate as the stream throws them.
 */
export async function collectModelReply(events: AsyncIterable<ModelStreamEvent>): Promise<ModelReply> {
  let text = ''
  const toolCalls: ToolCallEvent[] = []
  let usage: Usage | undefined
  for await (const event of events) {
    switch (event.type) {
      case 'text-delta':
        text += event.text
        break
      case 'tool-call':
        toolCalls.push(event)
        break
      case 'usage': {
        const { type: _type, ...counts } = event
        usage = counts
        break
      }
      case 'finish':
        return { text, toolCalls, usage, stopReason: event.stopReason, rawStopReason: event.rawStopReason }
      default:
        break
    }
  }
  // Every client ends with `finish`; a hand-written stream that does not is reported as an error stop.
  return { text, toolCalls, usage, stopReason: 'error', rawStopReason: undefined }
}
