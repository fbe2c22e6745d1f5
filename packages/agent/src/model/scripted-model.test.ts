import { heuristicCount } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { afterToolRoundProjection, askProjection, weatherTool } from '../testing/test-projections'
import { collectModelReply } from './collect-reply'
import { ContextTooLongError, InvalidModelClientOptionsError, ScriptExhaustedError } from './errors'
import type { ModelStreamEvent } from './model-client'
import { type ScriptStep, scriptedModel } from './scripted-model'

async function eventsOf(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

const script: readonly ScriptStep[] = [
  {
    text: 'Let me check. ',
    toolCalls: [
      { name: 'weather', arguments: { city: 'Oslo' } },
      { id: 'mine', name: 'weather', arguments: { city: 'Bergen' } },
    ],
  },
  ({ projection }) => `You said: ${projection.messages.filter((message) => message.role === 'user').at(-1)?.content ?? ''}`,
  'Done 🎉',
]

describe('scriptedModel', () => {
  it('streams text and tool calls in chunks, with usage from the projection and the reply', async () => {
    const model = scriptedModel({ script, chunkSize: 3 })
    const projection = askProjection()
    const events = await eventsOf(model.stream({ projection, tools: [weatherTool] }))
    const text = events.filter((event) => event.type === 'text-delta')
    expect(text.map((event) => event.text)).toEqual(['Let', ' me', ' ch', 'eck', '. '])
    const id = `call_${projection.meta.entryCount}_0`
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', toolCallId: id, name: 'weather', arguments: { city: 'Oslo' }, argumentsText: '{"city":"Oslo"}' },
      { type: 'tool-call', toolCallId: 'mine', name: 'weather', arguments: { city: 'Bergen' }, argumentsText: '{"city":"Bergen"}' },
    ])
    expect(
      events
        .filter((event) => event.type === 'tool-call-delta' && event.toolCallId === id)
        .map((event) => (event.type === 'tool-call-delta' ? event.argumentsDelta : '')),
    ).toEqual(['{"c', 'ity', '":"', 'Osl', 'o"}'])
    const usage = events.at(-2)
    expect(usage).toEqual({
      type: 'usage',
      inputTokens: projection.meta.tokens.total,
      outputTokens:
        heuristicCount('Let me check. ') +
        2 * (3 + heuristicCount('weather')) +
        heuristicCount('{"city":"Oslo"}') +
        heuristicCount('{"city":"Bergen"}'),
    })
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'tool-calls', rawStopReason: 'tool-calls' })
    expect(model).toMatchObject({ id: 'scripted', provider: 'scripted' })
  })

  it('answers calls in script order, functions seeing the projection, and records every request', async () => {
    const model = scriptedModel({ script, id: 'demo-model' })
    await collectModelReply(model.stream({ projection: askProjection(), tools: [] }))
    const second = await collectModelReply(model.stream({ projection: afterToolRoundProjection(), tools: [weatherTool], maxOutputTokens: 50 }))
    expect(second).toMatchObject({ text: 'You said: And tomorrow?', stopReason: 'stop' })
    expect((await collectModelReply(model.stream({ projection: askProjection(), tools: [] }))).text).toBe('Done 🎉')
    expect(model.requests.map((request) => request.maxOutputTokens)).toEqual([undefined, 50, undefined])
    expect(model.requests[1]?.tools).toEqual([weatherTool])
    expect(model.id).toBe('demo-model')
    await expect(collectModelReply(model.stream({ projection: askProjection(), tools: [] }))).rejects.toBeInstanceOf(ScriptExhaustedError)
  })

  it('is deterministic: the same script and projections give the same events', async () => {
    const run = async () => {
      const model = scriptedModel({ script, chunkSize: 2 })
      const all: ModelStreamEvent[][] = []
      for (const projection of [askProjection(), afterToolRoundProjection(), askProjection('¿Qué tal? 日本')]) {
        all.push(await eventsOf(model.stream({ projection, tools: [weatherTool] })))
      }
      return JSON.stringify(all)
    }
    expect(await run()).toBe(await run())
  })

  it('never splits a character in two', async () => {
    const model = scriptedModel({ script: () => '🫐🫐🫐 ok', chunkSize: 1 })
    const text = (await eventsOf(model.stream({ projection: askProjection(), tools: [] }))).flatMap((event) =>
      event.type === 'text-delta' ? [event.text] : [],
    )
    expect(text).toEqual(['🫐', '🫐', '🫐', ' ', 'o', 'k'])
  })

  it('scripts broken arguments, stop reasons, usage and errors', async () => {
    const tooLong = new ContextTooLongError(
      { provider: 'scripted', model: 'scripted', status: 400, providerMessage: 'too long', code: undefined, requestId: undefined },
      9000,
      8000,
    )
    const model = scriptedModel({
      script: [
        { toolCalls: [{ id: 'bad', name: 'weather', arguments: '{"city":' }] },
        { text: 'truncat', stopReason: 'length', usage: { cachedInputTokens: 7, outputTokens: 1 } },
        { error: tooLong },
        { text: 'partial', error: new Error('boom') },
      ],
    })
    const request = { projection: askProjection(), tools: [] }
    const broken = await collectModelReply(model.stream(request))
    expect(broken.toolCalls[0]).toMatchObject({ toolCallId: 'bad', arguments: {}, argumentsText: '{"city":' })
    expect(broken.toolCalls[0]?.argumentsError).toContain('not valid JSON')
    const cut = await collectModelReply(model.stream(request))
    expect(cut).toMatchObject({ text: 'truncat', stopReason: 'length', usage: { cachedInputTokens: 7, outputTokens: 1 } })
    await expect(eventsOf(model.stream(request))).rejects.toBe(tooLong)
    const partial: ModelStreamEvent[] = []
    await expect(
      (async () => {
        for await (const event of model.stream(request)) partial.push(event)
      })(),
    ).rejects.toThrow('boom')
    expect(partial.map((event) => event.type)).toEqual(['text-delta', 'text-delta'])
  })

  it('stops with finish "abort" between chunks when aborted', async () => {
    const model = scriptedModel({ script: ['one two three four five'], chunkSize: 4, delayMs: 1 })
    const controller = new AbortController()
    const events: ModelStreamEvent[] = []
    for await (const event of model.stream({ projection: askProjection(), tools: [], signal: controller.signal })) {
      events.push(event)
      if (events.length === 2) controller.abort()
    }
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'finish'])
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'abort', rawStopReason: undefined })
  })

  it('rejects bad options, naming them', () => {
    expect(() => scriptedModel({ script: [], chunkSize: 0 })).toThrow(InvalidModelClientOptionsError)
    expect(() => scriptedModel({ script: 'hello' as never })).toThrow(/script/)
  })
})
