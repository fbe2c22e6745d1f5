import { inspect } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { askProjection, weatherTool } from '../testing/test-projections'
import { anthropic } from './anthropic'
import type { FetchFunction } from './http-stream'
import type { ModelClient, ModelStreamEvent } from './model-client'
import { openAICompatible } from './openai-compatible'

// The key may sit anywhere in what a provider sends back (an echoed header, a proxy's debug page):
// wherever it sits, no output may hold it, whole or any 8 characters of it.
const key = 'sk-proj-Zq8vN3xW7tL2mK9pR4sY6uB1'
const windows = Array.from({ length: key.length - 7 }, (_, start) => key.slice(start, start + 8))

function leaks(text: string): string | undefined {
  return windows.find((window) => text.includes(window))
}

function renderings(error: unknown, events: readonly ModelStreamEvent[]): string {
  return [
    String(error),
    error instanceof Error ? (error.stack ?? '') : '',
    JSON.stringify(error) ?? '',
    inspect(error, { depth: Infinity, showHidden: true }),
    JSON.stringify(events),
  ].join('\n')
}

type Client = 'openai' | 'anthropic'

function client(kind: Client, fetch: FetchFunction): ModelClient {
  const shared = { baseURL: 'http://127.0.0.1:9/v1', apiKey: key, fetch, maxRetries: 0 }
  return kind === 'openai' ? openAICompatible({ ...shared, model: 'gpt-4o-mini' }) : anthropic({ ...shared, model: 'claude-sonnet-4-5' })
}

async function outcome(kind: Client, response: () => Response): Promise<{ error: unknown; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = []
  try {
    for await (const event of client(kind, () => Promise.resolve(response())).stream({ projection: askProjection(), tools: [weatherTool] }))
      events.push(event)
  } catch (error) {
    return { error, events }
  }
  return { error: undefined, events }
}

const sse = (text: string): Response => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
const json = (status: number, body: string): Response => new Response(body, { status, headers: { 'content-type': 'application/json' } })

/** Every way a provider's text reaches an error: error bodies of each shape, and stream events. */
const shapes: Readonly<Record<string, (kind: Client, text: string) => Response>> = {
  'JSON error body (400)': (_kind, text) => json(400, JSON.stringify({ error: { message: text, type: 'invalid_request_error' } })),
  'JSON error body (401)': (_kind, text) => json(401, JSON.stringify({ error: { message: text, type: 'authentication_error' } })),
  'plain text body (500)': (_kind, text) => new Response(text, { status: 500 }),
  'HTML page (502)': (_kind, text) =>
    new Response(`<!DOCTYPE html><html><head><title>${text}</title></head><body>${text}</body></html>`, { status: 502 }),
  'context too long (400)': (_kind, text) =>
    json(400, JSON.stringify({ error: { message: `prompt is too long: ${text}`, type: 'invalid_request_error' } })),
  'malformed stream event': (_kind, text) => sse(`data: {not json ${text}\n\n`),
  'error event inside the stream': (kind, text) =>
    kind === 'openai'
      ? sse(`data: ${JSON.stringify({ error: { message: text, type: 'server_error' } })}\n\n`)
      : sse(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: text } })}\n\n`),
}

const filler = 'the upstream said: '.repeat(60) // 1,140 characters: past every clip point

describe.each<Client>(['openai', 'anthropic'])('%s client: the key is scrubbed before anything is clipped', (kind) => {
  it.each(Object.keys(shapes))('%s, with the key at every offset of a long body', async (shape) => {
    const make = shapes[shape] as (kind: Client, text: string) => Response
    for (let offset = 0; offset <= filler.length; offset += 1) {
      const text = `${filler.slice(0, offset)}${key}${filler.slice(offset)}`
      const { error, events } = await outcome(kind, () => make(kind, text))
      expect(error, `offset ${offset}`).toBeDefined()
      const found = leaks(renderings(error, events))
      if (found !== undefined) expect.fail(`offset ${offset}: "${found}" of the key is in the output`)
    }
  })

  it('random text around the key, in random shapes (seed 20261123)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 700 }),
        fc.string({ unit: 'grapheme', maxLength: 700 }),
        fc.constantFrom(...Object.keys(shapes)),
        async (before, after, shape) => {
          const make = shapes[shape] as (kind: Client, text: string) => Response
          const { error, events } = await outcome(kind, () => make(kind, `${before}${key}${after}`))
          expect(leaks(renderings(error, events))).toBeUndefined()
        },
      ),
      { seed: 20261123, numRuns: 300 },
    )
  })
})
