import type { BaseMessage } from '@langchain/core/messages'
import { toAnthropicMessages, toOpenAIChat, type ProjectionResult, type ToolSchema } from '../src/index'
import {
  anthropicCacheBlocks,
  anthropicToolsCacheControl,
  createPromptCacheSimulator,
  openAICacheBlocks,
  type CacheBlock,
  type CacheSimulationRequest,
  type PromptCacheSimulator,
  type SimulatedCacheUsage,
} from '../src/caching/index'
import { langChainRequestJson } from './langchain-session'

// What a session's requests would be billed by each provider, replayed through core's prompt-cache
// simulator: Anthropic (Claude Sonnet 4.5, 5-minute TTL), OpenAI gpt-4.1 (caches by prefix) and
// OpenAI GPT-5.6 Terra (caches at breakpoints, bills writes), one call every 20 s.

export const ANTHROPIC_MODEL = 'claude-sonnet-4-5'
export const OPENAI_MODEL = 'gpt-4.1'
export const OPENAI_BREAKPOINTS_MODEL = 'gpt-5.6-terra'
/** Seconds between two model calls of the scripted session. */
export const CALL_INTERVAL_MS = 20_000

export interface BillingTotals {
  calls: number
  inputTokens: number
  readTokens: number
  writeTokens: number
  uncachedTokens: number
  /** Input only: output is the same for every strategy. */
  cost: number
  costWithoutCache: number
}

function emptyTotals(): BillingTotals {
  return { calls: 0, inputTokens: 0, readTokens: 0, writeTokens: 0, uncachedTokens: 0, cost: 0, costWithoutCache: 0 }
}

function add(totals: BillingTotals, usage: SimulatedCacheUsage): void {
  totals.calls++
  totals.inputTokens += usage.inputTokens
  totals.readTokens += usage.readTokens
  totals.writeTokens += usage.writeTokens
  totals.uncachedTokens += usage.uncachedTokens
  totals.cost += usage.cost ?? Number.NaN
  totals.costWithoutCache += usage.costWithoutCache ?? Number.NaN
}

/** One strategy's bill under both providers, fed one request at a time. */
export interface Billing {
  readonly anthropic: BillingTotals
  readonly openai: BillingTotals
  /** GPT-5.6: requests carry the projection's `prompt_cache_breakpoint` markers, as the agent's client sends them. */
  readonly openaiBreakpoints: BillingTotals
  billProjection(result: ProjectionResult, tools: readonly ToolSchema[]): void
  billLangChain(messages: readonly BaseMessage[], tokensOf: (message: BaseMessage) => number, tools: readonly ToolSchema[]): void
}

export function createBilling(count: (text: string) => number): Billing {
  const simulators: Record<'anthropic' | 'openai' | 'openaiBreakpoints', PromptCacheSimulator> = {
    anthropic: createPromptCacheSimulator({ provider: 'anthropic', model: ANTHROPIC_MODEL }),
    openai: createPromptCacheSimulator({ provider: 'openai', model: OPENAI_MODEL }),
    openaiBreakpoints: createPromptCacheSimulator({ provider: 'openai', model: OPENAI_BREAKPOINTS_MODEL }),
  }
  const anthropic = emptyTotals()
  const openai = emptyTotals()
  const openaiBreakpoints = emptyTotals()
  let call = 0
  const feed = (
    anthropicRequest: Omit<CacheSimulationRequest, 'at'>,
    openAIRequest: Omit<CacheSimulationRequest, 'at'>,
    breakpointsRequest: Omit<CacheSimulationRequest, 'at'>,
  ): void => {
    const at = call++ * CALL_INTERVAL_MS
    add(anthropic, simulators.anthropic.next({ at, ...anthropicRequest }))
    add(openai, simulators.openai.next({ at, ...openAIRequest }))
    add(openaiBreakpoints, simulators.openaiBreakpoints.next({ at, ...breakpointsRequest }))
  }
  return {
    anthropic,
    openai,
    openaiBreakpoints,
    billProjection(result, tools) {
      // As the agent's clients send them: tool schemas first, the last one marked when there is no system prompt.
      const toolsMark = anthropicToolsCacheControl(result)
      const anthropicTools = tools.map((tool, position) => ({
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        input_schema: tool.parameters,
        ...(position === tools.length - 1 && toolsMark !== undefined ? { cache_control: toolsMark } : {}),
      }))
      const openAITools = tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }))
      feed(
        anthropicCacheBlocks({ ...toAnthropicMessages(result), tools: anthropicTools }, count),
        openAICacheBlocks({ messages: toOpenAIChat(result), tools: openAITools }, count),
        openAICacheBlocks({ messages: toOpenAIChat(result, { cacheBreakpoints: true }), tools: openAITools }, count),
      )
    },
    billLangChain(messages, tokensOf, tools) {
      // A LangChain app marks what LangChain's Anthropic docs show: the system prompt and the last message.
      const toolsText = JSON.stringify(tools)
      const toolsBlock: CacheBlock = { id: `tools:${toolsText.length}`, tokens: count(toolsText) }
      const blocks: CacheBlock[] = messages.map((message, position) => {
        const id = langChainRequestJson(message)
        const tokens = tokensOf(message)
        const marked = position === 0 || position === messages.length - 1
        return marked ? { id, tokens, breakpoint: '5m' } : { id, tokens }
      })
      // LangChain's OpenAI path sends no explicit breakpoints: GPT-5.6 caches at its implicit one only.
      const unmarked = blocks.map(({ id, tokens }) => ({ id, tokens }))
      feed({ blocks: [toolsBlock, ...blocks] }, { blocks: [toolsBlock, ...unmarked] }, { blocks: [toolsBlock, ...unmarked] })
    },
  }
}
