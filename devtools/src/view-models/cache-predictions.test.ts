import { createThread, customTokenCounter, definePolicy, project } from '@threadlens/core'
import { heuristicCount } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { predictCalls, type CallToPredict } from './cache-predictions'

const counter = customTokenCounter('heuristic', heuristicCount, false)

/** Three calls of a growing chat with a long system prompt, 30 s apart, as an Anthropic session records them. */
function calls(reportedReads: readonly (number | undefined)[], model = 'claude-sonnet-4-5'): CallToPredict[] {
  const policy = definePolicy({ systemPrompt: 'You review pull requests carefully. '.repeat(150) })
  const thread = createThread({ id: 'review' })
  return reportedReads.map((cachedInputTokens, turn) => {
    thread.append({ kind: 'message', payload: { role: 'user', content: `Look at change ${turn}` } })
    const result = project({ thread, policy, counter })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `Change ${turn} looks fine.` } })
    const inputTokens = result.meta.tokens.total
    return {
      callId: `call-${turn}`,
      result,
      tools: [],
      at: turn * 30_000,
      model,
      reported: cachedInputTokens === undefined ? undefined : { inputTokens, cachedInputTokens },
    }
  })
}

describe('predictCalls', () => {
  it('predicts reads of the previous request and flags a reported miss it did not predict', () => {
    const first = predictCalls(calls([0, 0, 0]), (text) => counter.countCached(text))
    expect(first.map((prediction) => prediction.provider)).toEqual(['anthropic', 'anthropic', 'anthropic'])
    expect(first[0]?.predicted.readTokens).toBe(0)
    expect(first[1]?.predicted.readTokens).toBeGreaterThan(1_024)
    expect(first.map((prediction) => prediction.comparison.verdict)).toEqual(['as-predicted', 'unpredicted-miss', 'unpredicted-miss'])
    const read = first[1]?.predicted.readTokens as number
    const matching = predictCalls(calls([0, read, undefined]), (text) => counter.countCached(text))
    expect(matching.map((prediction) => prediction.comparison.verdict)).toEqual(['as-predicted', 'as-predicted', 'not-reported'])
  })

  it('simulates unknown models under OpenAI rules, unpriced', () => {
    const predictions = predictCalls(calls([0, 0], 'my-local-llama'), (text) => counter.countCached(text))
    expect(predictions[0]?.provider).toBe('openai')
    expect(predictions[0]?.predicted.cost).toBeUndefined()
  })
})
