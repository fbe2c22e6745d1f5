import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeProviderServer, startFakeProviderServer } from '@threadlens/testing/node'
import { askProjection, weatherTool } from '../testing/test-projections'
import { anthropic } from './anthropic'
import type { ModelClient } from './model-client'
import { openAICompatible } from './openai-compatible'

// Distinctive enough that any leak shows up in a substring search.
const secret = 'sk-LEAKCHECK-7f3a9c2e51b04d86'
const headerSecret = 'hdr-LEAKCHECK-0a1b2c3d4e5f'
let server: FakeProviderServer
let otherKeyServer: FakeProviderServer

beforeAll(async () => {
  server = await startFakeProviderServer({ apiKey: secret })
  otherKeyServer = await startFakeProviderServer({ apiKey: 'the-right-key' })
})
afterAll(async () => {
  await server.close()
  await otherKeyServer.close()
})

function everyRendering(value: unknown): string[] {
  return [
    JSON.stringify(value) ?? '',
    String(value),
    inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    value instanceof Error ? (value.stack ?? '') : '',
  ]
}

function expectNoSecret(value: unknown): void {
  for (const rendering of everyRendering(value)) {
    expect(rendering).not.toContain(secret)
    expect(rendering).not.toContain(headerSecret)
  }
}

async function caught(client: ModelClient): Promise<unknown> {
  try {
    for await (const _event of client.stream({ projection: askProjection(), tools: [weatherTool] })) {
      // drain
    }
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail')
}

const clients = {
  openAICompatible: (baseURL: string) =>
    openAICompatible({ baseURL, apiKey: secret, model: 'gpt-4o-mini', headers: { 'X-Custom-Auth': `Token ${headerSecret}` }, maxRetries: 0 }),
  anthropic: (baseURL: string) =>
    anthropic({ baseURL, apiKey: secret, model: 'claude-sonnet-4-5', headers: { 'api-key': headerSecret }, maxRetries: 0 }),
}

describe.each(Object.entries(clients))('%s keeps the API key out of everything it exposes', (_name, create) => {
  it('the client object', () => {
    const client = create(server.baseURL)
    expectNoSecret(client)
    expect(Object.isFrozen(client)).toBe(true)
  })

  it('errors for a rejected key, a rate limit, a server error and an unreachable server', async () => {
    const rejected = await caught(create(otherKeyServer.baseURL))
    expect(rejected).toMatchObject({ status: 401 })
    expectNoSecret(rejected)
    server.enqueue({ fail: 'rate-limit', headers: { 'retry-after': '90' } }, { fail: 'server' })
    expectNoSecret(await caught(create(server.baseURL)))
    expectNoSecret(await caught(create(server.baseURL)))
    expect(server.remainingSteps).toBe(0)
    const closed = await startFakeProviderServer()
    await closed.close()
    expectNoSecret(await caught(create(closed.baseURL)))
  })

  it('errors for a server that echoes the key and the header back in its message', async () => {
    server.enqueue({ fail: 'raw', status: 400, body: JSON.stringify({ error: { message: `bad request for key ${secret} and ${headerSecret}` } }) })
    const error = await caught(create(server.baseURL))
    expect(String(error)).toContain('bad request for key [redacted] and [redacted]')
    expectNoSecret(error)
  })
})

describe('invalid options', () => {
  it('name the option but never quote its value', () => {
    let error: unknown
    try {
      openAICompatible({ baseURL: secret, apiKey: secret, model: '' })
    } catch (thrown) {
      error = thrown
    }
    // The first bad option is named (the options are read in order: baseURL before model).
    expect(String(error)).toMatch(/baseURL: must be an absolute http\(s\) URL$/)
    expectNoSecret(error)
    expect(() => openAICompatible({ baseURL: 'https://api.example.com/v1', apiKey: secret, model: '' })).toThrow(/model: must name the model$/)
    expect(() => anthropic({ apiKey: '', model: 'claude' })).toThrow(/apiKey: must be the Anthropic API key/)
  })
})
