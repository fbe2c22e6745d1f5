import { toAnthropicMessages, toOpenAIChat, type ProjectionResult, type ToolSchema } from '@threadlens/core'
import {
  anthropicCacheBlocks,
  anthropicToolsCacheControl,
  compareCacheUsage,
  createPromptCacheSimulator,
  openAICacheBlocks,
  openAITakesCacheBreakpoints,
  type CacheComparison,
  type PromptCacheSimulator,
  type SimulatedCacheUsage,
} from '@threadlens/core/caching'
import { modelInfo, type ModelInfo } from '@threadlens/core/models'
import { viewFormatOptions } from './request-format'

/** One past call to predict: its replayed projection, when it was sent, and what the provider reported. */
export interface CallToPredict {
  readonly callId: string
  readonly result: ProjectionResult
  readonly tools: readonly ToolSchema[]
  /** Milliseconds since the epoch. */
  readonly at: number
  readonly model: string | undefined
  readonly reported: { readonly inputTokens: number; readonly cachedInputTokens?: number } | undefined
}

export interface CachePrediction {
  readonly callId: string
  /** Whose cache rules the prediction follows; Gemini is sent through its OpenAI-compatible endpoint. */
  readonly provider: 'anthropic' | 'openai' | 'gemini'
  readonly predicted: SimulatedCacheUsage
  readonly comparison: CacheComparison
}

// Unknown models (a local server's) are simulated under OpenAI's rules, unpriced.
function infoFor(model: string | undefined): ModelInfo {
  try {
    if (model !== undefined) return modelInfo(model)
  } catch {
    // falls through to the unpriced stand-in
  }
  return {
    id: model ?? 'unknown',
    provider: 'openai',
    contextWindow: 1,
    maxOutputTokens: 1,
    tokenizer: 'heuristic',
    exactTokenizer: false,
    safetyMargin: 0,
  }
}

/**
 * Replays the calls' requests, oldest first, through core's prompt-cache simulator (Anthropic rules
 * for Anthropic models, OpenAI's for the rest) and sets each prediction beside the reported usage.
 * Calls must be in the order they were sent. Store-held images and files stand in by their id (the
 * hash of their bytes), so a prefix matches exactly when it would with the bytes.
 */
export function predictCalls(calls: readonly CallToPredict[], count: (text: string) => number): CachePrediction[] {
  const simulators = new Map<string, PromptCacheSimulator>()
  let latest = Number.NEGATIVE_INFINITY
  return calls.map((call) => {
    const info = infoFor(call.model)
    const provider = info.provider === 'anthropic' ? 'anthropic' : info.provider === 'google' ? 'gemini' : 'openai'
    let simulator = simulators.get(info.id)
    if (simulator === undefined) simulators.set(info.id, (simulator = createPromptCacheSimulator({ provider, model: info })))
    // Clocks of two tabs may disagree by a little: never let a call go back in time.
    latest = Math.max(latest, call.at)
    const toolsMark = anthropicToolsCacheControl(call.result)
    const blocks =
      provider === 'anthropic'
        ? anthropicCacheBlocks(
            {
              ...toAnthropicMessages(call.result, viewFormatOptions),
              tools: call.tools.map((tool, position) => ({
                name: tool.name,
                ...(tool.description === undefined ? {} : { description: tool.description }),
                input_schema: tool.parameters,
                ...(position === call.tools.length - 1 && toolsMark !== undefined ? { cache_control: toolsMark } : {}),
              })),
            },
            count,
          )
        : openAICacheBlocks(
            {
              messages: toOpenAIChat(call.result, { ...viewFormatOptions, cacheBreakpoints: openAITakesCacheBreakpoints(info.id) }),
              tools: call.tools.map((tool) => ({
                type: 'function',
                function: { name: tool.name, description: tool.description, parameters: tool.parameters },
              })),
            },
            count,
          )
    const predicted = simulator.next({ at: latest, ...blocks })
    const [comparison] = compareCacheUsage([predicted], [call.reported])
    return { callId: call.callId, provider, predicted, comparison: comparison as CacheComparison }
  })
}
