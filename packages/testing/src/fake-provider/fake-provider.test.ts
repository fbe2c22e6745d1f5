import { describe, expect, it } from 'vitest'
import { createFakeProvider, type IncomingFakeRequest, responseHeaders, responseText } from './fake-provider'

// The transport-free core that the Node server and the Playwright route adapter share.
const chatBody = { model: 'local-model', messages: [{ role: 'user', content: 'hi' }], stream: true }
const openAI = (headers: Record<string, string> = {}, body: unknown = chatBody): IncomingFakeRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json', ...headers },
  rawBody: JSON.stringify(body),
})
const anthropicBody = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true }
const anthropic = (headers: Record<string, string>): IncomingFakeRequest => ({
  method: 'POST',
  path: '/v1/messages',
  headers,
  rawBody: JSON.stringify(anthropicBody),
})

describe('createFakeProvider', () => {
  it('requires the key by default, and accepts any key or none with apiKey: null (a local server)', () => {
    expect(createFakeProvider({ script: [{ text: 'hi' }] }).receive(openAI()).outcome).toMatchObject({ kind: 'response', response: { status: 401 } })
    const local = createFakeProvider({ apiKey: null, script: [{ text: 'hi' }, { text: 'again' }] })
    expect(local.receive(openAI()).outcome.kind).toBe('stream')
    expect(local.receive(anthropic({ 'anthropic-version': '2023-06-01' })).outcome.kind).toBe('stream')
    // The version header is still the API's rule, key or no key.
    expect(local.receive(anthropic({})).outcome).toMatchObject({ kind: 'response', response: { status: 400 } })
    expect(local.requests.map((request) => request.status)).toEqual([200, 200, 400])
  })

  it('streams a scripted reply in the wire format, and refuses a broken request without using a step', () => {
    const provider = createFakeProvider({ apiKey: null, script: [{ text: 'Hello there' }] })
    const broken = provider.receive(openAI({}, { ...chatBody, stream: false, temperature: 'hot', extra: 1 }))
    expect(broken.outcome).toMatchObject({ kind: 'response', response: { status: 400 } })
    expect(broken.record.problems.length).toBeGreaterThan(0)
    expect(provider.remainingSteps).toBe(1)
    const { outcome } = provider.receive(openAI())
    if (outcome.kind !== 'stream') throw new Error(`expected a stream, got ${outcome.kind}`)
    expect(outcome.headers['content-type']).toMatch(/^text\/event-stream/)
    const text = outcome.stream.frames.join('')
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
    expect([...text.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('')).toBe('Hello there')
    expect(provider.remainingSteps).toBe(0)
  })

  it('misbehaves forever with whenEmpty, and answers HTML where JSON belongs with a raw step', () => {
    const html = '<html><body>502 Bad Gateway</body></html>'
    const provider = createFakeProvider({
      apiKey: null,
      script: [{ fail: 'raw', status: 502, body: html, headers: { 'content-type': 'text/html' } }],
      whenEmpty: { fail: 'overloaded' },
    })
    const first = provider.receive(openAI()).outcome
    if (first.kind !== 'response') throw new Error(`expected a whole response, got ${first.kind}`)
    expect(responseText(first.response)).toBe(html)
    expect(responseHeaders(first.response)['content-type']).toBe('text/html')
    const statuses = Array.from({ length: 5 }, () => provider.receive(openAI()).record.status)
    expect(statuses).toEqual([503, 503, 503, 503, 503])
  })

  it("refuses a prompt over the server's own window, counted the server's way", () => {
    const provider = createFakeProvider({ apiKey: null, maxContextTokens: 1000, countPromptTokens: () => 1400, whenEmpty: { text: 'never sent' } })
    const { outcome } = provider.receive(openAI())
    if (outcome.kind !== 'response') throw new Error(`expected a whole response, got ${outcome.kind}`)
    expect(outcome.response.status).toBe(400)
    expect(responseText(outcome.response)).toContain('maximum context length is 1000 tokens. However, your messages resulted in 1400 tokens')
  })
})
