import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeProviderServer, startFakeProviderServer } from './fake-provider-server'

// The fake is only worth its tests if it refuses what the real APIs refuse: these check it with raw requests.
const apiKey = 'test-key'
let server: FakeProviderServer

beforeEach(async () => {
  server = await startFakeProviderServer({ apiKey, script: [{ text: 'hi' }] })
})
afterEach(async () => {
  await server.close()
})

const openAIHeaders = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
const anthropicHeaders = { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }

async function post(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, json, text }
}

const validOpenAI = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '4°C' },
  ],
  tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
  stream: true,
  stream_options: { include_usage: true },
}

describe('fake OpenAI Chat Completions', () => {
  it('streams chat.completion.chunk events ending in [DONE] for a valid request', async () => {
    const { status, text } = await post('/v1/chat/completions', openAIHeaders, validOpenAI)
    expect(status).toBe(200)
    expect(text).toContain('"object":"chat.completion.chunk"')
    expect(text).toContain('"usage":{"prompt_tokens":')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(server.requests[0]?.problems).toEqual([])
  })

  it("answers broken requests with OpenAI's 400 error shape, keeping the scripted reply", async () => {
    const broken: [unknown, RegExp][] = [
      [{ ...validOpenAI, messages: validOpenAI.messages.slice(0, 2) }, /tool call "call_1" is not answered/],
      [{ ...validOpenAI, messages: [validOpenAI.messages[0], validOpenAI.messages[2]] }, /does not follow an assistant message with tool_calls/],
      [{ ...validOpenAI, messages: [...validOpenAI.messages, { role: 'tool', tool_call_id: 'call_1', content: 'again' }] }, /answered twice/],
      [{ ...validOpenAI, messages: [{ role: 'robot', content: 'beep' }] }, /role: must be one of/],
      [{ ...validOpenAI, messages: [] }, /too short - 'messages'/],
      [{ ...validOpenAI, temprature: 1 }, /Unrecognized request argument supplied: temprature/],
      [{ ...validOpenAI, tools: [] }, /too short - 'tools'/],
      [{ ...validOpenAI, tools: [{ type: 'function', function: { name: 'has space' } }] }, /does not match pattern/],
      [{ ...validOpenAI, stream: false }, /stream_options' parameter is only allowed when 'stream' is enabled/],
      [{ ...validOpenAI, max_tokens: 0 }, /max_tokens: must be an integer/],
      [{ ...validOpenAI, model: undefined }, /you must provide a model parameter/],
    ]
    for (const [body, message] of broken) {
      const { status, json } = await post('/v1/chat/completions', openAIHeaders, body)
      expect(status, JSON.stringify(body)).toBe(400)
      expect(json).toEqual({
        error: { message: expect.stringMatching(message), type: 'invalid_request_error', param: expect.anything(), code: null },
      })
    }
    expect(server.remainingSteps).toBe(1)
  })

  it('answers a missing or wrong key with 401, and bad JSON with 400', async () => {
    const missing = await post('/v1/chat/completions', { 'content-type': 'application/json' }, validOpenAI)
    expect(missing).toMatchObject({ status: 401, json: { error: { type: 'invalid_request_error', code: null } } })
    const wrong = await post('/v1/chat/completions', { ...openAIHeaders, authorization: 'Bearer sk-wrong-0000' }, validOpenAI)
    expect(wrong).toMatchObject({ status: 401, json: { error: { code: 'invalid_api_key', message: expect.stringContaining('sk-******0000') } } })
    expect((await post('/v1/chat/completions', openAIHeaders, '{"model":')).status).toBe(400)
  })

  it('answers an unknown path with 404, and an empty script with a 400 saying so', async () => {
    expect(await post('/v1/completions', openAIHeaders, validOpenAI)).toMatchObject({
      status: 404,
      json: { error: { message: 'Invalid URL (POST /v1/completions)' } },
    })
    await post('/v1/chat/completions', openAIHeaders, validOpenAI)
    const empty = await post('/v1/chat/completions', openAIHeaders, validOpenAI)
    expect(empty).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining('no scripted response is left') } } })
  })
})

const validAnthropic = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  system: 'Be brief.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '4°C' }] },
  ],
  tools: [{ name: 'weather', input_schema: { type: 'object' } }],
  stream: true,
}

describe('fake Anthropic Messages', () => {
  it('streams message events for a valid request', async () => {
    const { status, text } = await post('/v1/messages', anthropicHeaders, validAnthropic)
    expect(status).toBe(200)
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true)
    expect(text).toContain('event: ping')
    expect(text.trimEnd().endsWith('event: message_stop\ndata: {"type":"message_stop"}')).toBe(true)
  })

  it("answers broken requests with Anthropic's 400 error shape", async () => {
    const [user, assistant, result] = validAnthropic.messages
    const broken: [unknown, RegExp][] = [
      [{ ...validAnthropic, messages: [user, assistant] }, /^messages\.1: tool_use "toolu_1" is not answered/],
      [{ ...validAnthropic, messages: [assistant, result] }, /^messages\.0: the first message must be from the user/],
      [{ ...validAnthropic, messages: [user, user] }, /roles must alternate/],
      [
        { ...validAnthropic, messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'ends in space ' }] }] },
        /must not end with whitespace/,
      ],
      [{ ...validAnthropic, max_tokens: undefined }, /^max_tokens: Field required/],
      [{ ...validAnthropic, temprature: 1 }, /^temprature: Extra inputs are not permitted/],
      [
        { ...validAnthropic, tools: [{ name: 'weather', parameters: { type: 'object' } }] },
        /^tools\.0\.custom\.parameters: Extra inputs are not permitted/,
      ],
      [{ ...validAnthropic, tools: [{ name: 'weather', input_schema: { type: 'array' } }] }, /input_schema\.type: Input should be 'object'/],
      [{ ...validAnthropic, system: 7 }, /^system: must be a string/],
    ]
    for (const [body, message] of broken) {
      const { status, json } = await post('/v1/messages', anthropicHeaders, body)
      expect(status, JSON.stringify(body)).toBe(400)
      expect(json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(message) } })
    }
    const blocks = await post('/v1/messages', anthropicHeaders, { ...validAnthropic, system: [{ type: 'text', text: 'Be brief.' }] })
    expect(blocks.status).toBe(200)
  })

  it('checks the key, the version header, and the browser-access header on requests with an Origin', async () => {
    const { 'x-api-key': _key, ...noKey } = anthropicHeaders
    expect(await post('/v1/messages', noKey, validAnthropic)).toMatchObject({
      status: 401,
      json: { error: { type: 'authentication_error', message: 'x-api-key header is required' } },
    })
    expect(await post('/v1/messages', { ...anthropicHeaders, 'x-api-key': 'nope' }, validAnthropic)).toMatchObject({
      status: 401,
      json: { error: { message: 'invalid x-api-key' } },
    })
    const { 'anthropic-version': _version, ...noVersion } = anthropicHeaders
    expect(await post('/v1/messages', noVersion, validAnthropic)).toMatchObject({
      status: 400,
      json: { error: { message: 'anthropic-version: header is required' } },
    })
    const browser = await post('/v1/messages', { ...anthropicHeaders, origin: 'http://localhost:5173' }, validAnthropic)
    expect(browser).toMatchObject({ status: 401, json: { error: { message: expect.stringContaining('anthropic-dangerous-direct-browser-access') } } })
    const allowed = await post(
      '/v1/messages',
      { ...anthropicHeaders, origin: 'http://localhost:5173', 'anthropic-dangerous-direct-browser-access': 'true' },
      validAnthropic,
    )
    expect(allowed.status).toBe(200)
  })
})

describe('fake provider server', () => {
  it('answers CORS preflights so a browser page can call it', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, anthropic-version',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toBe('x-api-key, anthropic-version')
  })

  it('listens on 127.0.0.1 with an ephemeral port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.baseURL).toBe(`${server.url}/v1`)
  })
})
