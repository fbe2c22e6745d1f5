/**
 * Token usage of one model call, as the provider reported it: the one usage shape of threadlens
 * (call records, replays, the agent's model clients, the AI SDK adapter).
 */
export interface Usage {
  /** Every prompt token, cached ones included (Anthropic's uncached, cache-read and cache-write counts added up). */
  readonly inputTokens: number
  readonly outputTokens: number
  /** Prompt tokens served from the provider's prompt cache; absent when the provider did not say. */
  readonly cachedInputTokens?: number
  /** Prompt tokens written to the prompt cache (Anthropic bills them higher); absent when the provider did not say. */
  readonly cacheWriteInputTokens?: number
}
