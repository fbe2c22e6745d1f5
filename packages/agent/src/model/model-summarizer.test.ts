import { compact, createThread, definePolicy } from '@threadlens/core'
import { heuristicCount } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { type FakeProviderServer, startFakeProviderServer } from '@threadlens/testing/node'
import { testCounter } from '../testing/test-projections'
import { DEFAULT_SUMMARIZER_INSTRUCTIONS, modelSummarizer } from './model-summarizer'
import { openAICompatible } from './openai-compatible'
import { scriptedModel } from './scripted-model'

function longThread() {
  const thread = createThread({ id: 'summary-test' })
  thread.append({ kind: 'message', payload: { role: 'user', content: 'Plan a weekend in Oslo for two, under 5000 NOK.' } })
  thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c1', toolCallId: 't1' } })
  thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 4 } }, refs: { callId: 'c1', toolCallId: 't1' } })
  for (let turn = 0; turn < 12; turn += 1) {
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `Option ${turn}: ${'museum and fjord walk. '.repeat(8)}` } })
    thread.append({ kind: 'message', payload: { role: 'user', content: `Tell me more about option ${turn}.` } })
  }
  return thread
}

const summarize = {
  previousSummary: 'The user wants a cheap Oslo weekend.',
  entries: longThread().entries.slice(0, 3),
  maxTokens: 200,
  countTokens: heuristicCount,
  signal: undefined,
}

describe('modelSummarizer', () => {
  it('asks the model with the previous summary and a transcript of the entries, capped at maxTokens', async () => {
    const model = scriptedModel({ script: ['  The user plans an Oslo weekend; it is 4°C.  '] })
    const text = await modelSummarizer({ model }).summarize(summarize)
    expect(text).toBe('The user plans an Oslo weekend; it is 4°C.')
    const [request] = model.requests
    expect(request?.maxOutputTokens).toBe(200)
    expect(request?.tools).toEqual([])
    expect(request?.projection.messages[0]).toEqual({ role: 'system', content: DEFAULT_SUMMARIZER_INSTRUCTIONS })
    const prompt = request?.projection.messages[1]
    expect(prompt?.role).toBe('user')
    expect(prompt?.content).toContain('at most 200 tokens')
    expect(prompt?.content).toContain('<previous-summary>\nThe user wants a cheap Oslo weekend.\n</previous-summary>')
    expect(prompt?.content).toContain(
      'user: Plan a weekend in Oslo for two, under 5000 NOK.\nassistant called weather({"city":"Oslo"})\nweather returned: {"celsius":4}',
    )
  })

  it('asks by default for attributed, dated facts, decisions and open tasks, values verbatim, no small talk', () => {
    for (const ask of [
      /who did, said or plans what, where and when/,
      /resolve relative dates/,
      /decisions/,
      /open tasks/,
      /verbatim/,
      /Drop greetings/,
    ]) {
      expect(DEFAULT_SUMMARIZER_INSTRUCTIONS).toMatch(ask)
    }
  })

  it('throws when the reply was cut off or aborted, so compaction keeps the history', async () => {
    const cut = scriptedModel({ script: [{ text: 'The user pl', stopReason: 'length' }] })
    await expect(modelSummarizer({ model: cut }).summarize(summarize)).rejects.toThrow(/cut off at 200 tokens/)
    const aborted = scriptedModel({ script: ['never'] })
    await expect(modelSummarizer({ model: aborted }).summarize({ ...summarize, signal: AbortSignal.abort(new Error('stop')) })).rejects.toThrow(
      'stop',
    )
  })

  it("drives core's compact() through a real client against the fake server", async () => {
    let server: FakeProviderServer | undefined
    try {
      server = await startFakeProviderServer({ apiKey: 'k', script: [{ text: 'User: Oslo weekend, two people, under 5000 NOK; 4°C.' }] })
      const summarizer = modelSummarizer({
        model: openAICompatible({ baseURL: server.baseURL, apiKey: 'k', model: 'gpt-4o-mini' }),
        name: 'gpt-summary',
      })
      const result = await compact({
        thread: longThread(),
        policy: definePolicy({ maxInputTokens: 400, reserveOutputTokens: 50, keepLastTurns: 2 }),
        counter: testCounter,
        summarizer,
      })
      expect(result.status).toBe('summarized')
      expect(server.requests[0]?.problems).toEqual([])
      expect(JSON.stringify(result)).toContain('Oslo weekend, two people')
    } finally {
      await server?.close()
    }
  })
})
