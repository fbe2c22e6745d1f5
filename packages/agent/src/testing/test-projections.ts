// Test helper: real projections (core's `project`) of small threads, for the model client tests.
import {
  createThread,
  customTokenCounter,
  definePolicy,
  type EntryInput,
  type PendingMessage,
  project,
  type ProjectionResult,
  type ToolSchema,
} from '@threadlens/core'
import { heuristicCount } from '@threadlens/core/internal'
import type { ModelRequest } from '../model/model-client'

export const testCounter = customTokenCounter('heuristic', heuristicCount, false)

export const weatherTool: ToolSchema = {
  name: 'weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
}

export const clockTool: ToolSchema = { name: 'clock', parameters: { type: 'object', properties: {} } }

/** Projects `entries` plus `pending` with a roomy policy and the heuristic counter. */
export function projectionOf(
  entries: readonly EntryInput[],
  options: { readonly pending?: readonly PendingMessage[]; readonly systemPrompt?: string; readonly tools?: readonly ToolSchema[] } = {},
): ProjectionResult {
  const thread = createThread({ id: 'model-client-test' })
  for (const entry of entries) thread.append(entry)
  return project({
    thread,
    policy: definePolicy({
      maxInputTokens: 100_000,
      reserveOutputTokens: 1_000,
      ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    }),
    counter: testCounter,
    ...(options.pending === undefined ? {} : { pending: options.pending }),
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  })
}

/** A user question. */
export function askProjection(question = 'What is the weather in Oslo?'): ProjectionResult {
  return projectionOf([], { systemPrompt: 'Be brief.', pending: [{ role: 'user', content: question }], tools: [weatherTool] })
}

/** A model request asking `askProjection()`'s question with the weather tool, as a model client test sends it. */
export function ask(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { projection: askProjection(), tools: [weatherTool], ...overrides }
}

/**
 * A thread that already holds a round of two parallel tool calls and their results, then a new
 * question: the request must carry the calls and results in the provider's required order.
 */
export function afterToolRoundProjection(): ProjectionResult {
  return projectionOf(
    [
      { kind: 'message', payload: { role: 'user', content: 'Weather in Oslo and Bergen?' } },
      { kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'model-1', toolCallId: 'call_oslo' } },
      { kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Bergen' } }, refs: { callId: 'model-1', toolCallId: 'call_bergen' } },
      { kind: 'tool_result', payload: { name: 'weather', result: { celsius: 4 } }, refs: { callId: 'model-1', toolCallId: 'call_bergen' } },
      { kind: 'tool_result', payload: { name: 'weather', error: 'station offline' }, refs: { callId: 'model-1', toolCallId: 'call_oslo' } },
      { kind: 'message', payload: { role: 'assistant', content: 'Bergen: 4°C. Oslo: unknown.' } },
    ],
    { systemPrompt: 'Be brief.', pending: [{ role: 'user', content: 'And tomorrow?' }], tools: [weatherTool] },
  )
}
