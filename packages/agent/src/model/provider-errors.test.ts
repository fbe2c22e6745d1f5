import { ThreadlensError } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import {
  ContextTooLongError,
  ProviderAuthError,
  ProviderError,
  ProviderNetworkError,
  ProviderRequestError,
  ProviderServerError,
  RateLimitError,
} from './errors'
import { type CallContext, errorFromStatus, errorFromStreamPayload, networkError, scrubSecrets } from './provider-errors'

const context: CallContext = { provider: 'openai-compatible', model: 'gpt-4o-mini', origin: 'https://api.example', secrets: ['sk-secret-123'] }
const now = 0

function fromStatus(status: number, body: unknown, headers: Record<string, string> = {}): ProviderError {
  return errorFromStatus(status, body, typeof body === 'string' ? body : JSON.stringify(body), new Headers(headers), context, now)
}
const openAIError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } })
const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_011' })

describe('errorFromStatus', () => {
  it('maps 401 and 403 to ProviderAuthError, never retryable', () => {
    const error = fromStatus(401, openAIError('Incorrect API key provided: sk-***.', 'invalid_request_error', 'invalid_api_key'), {
      'x-request-id': 'req_1',
    })
    expect(error).toBeInstanceOf(ProviderAuthError)
    expect(error).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      requestId: 'req_1',
      retryable: false,
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
    })
    expect(fromStatus(403, anthropicError('permission_error', 'no access'))).toBeInstanceOf(ProviderAuthError)
    expect(fromStatus(403, anthropicError('permission_error', 'no access')).requestId).toBe('req_011')
  })

  it('maps 429 to RateLimitError with retryAfterMs; insufficient_quota is not retryable', () => {
    const limited = fromStatus(429, openAIError('Rate limit reached', 'tokens', 'rate_limit_exceeded'), { 'retry-after': '3' })
    expect(limited).toBeInstanceOf(RateLimitError)
    expect(limited).toMatchObject({ retryAfterMs: 3000, quotaExceeded: false, retryable: true })
    const quota = fromStatus(429, openAIError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota'))
    expect(quota).toMatchObject({ quotaExceeded: true, retryable: false })
    expect(quota.message).toContain('billing')
  })

  it('recognises context-too-long errors of OpenAI, vLLM, OpenRouter, llama.cpp and Anthropic, with token counts', () => {
    const cases: [number, unknown, number | undefined, number | undefined][] = [
      [
        400,
        openAIError(
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens.",
          'invalid_request_error',
          'context_length_exceeded',
        ),
        130412,
        128000,
      ],
      [400, openAIError('Context window exceeded', 'invalid_request_error', 'context_length_exceeded'), undefined, undefined],
      [
        400,
        {
          object: 'error',
          message:
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
          type: 'BadRequestError',
          code: 400,
        },
        5000,
        4096,
      ],
      [
        400,
        { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } },
        undefined,
        undefined,
      ],
      [400, anthropicError('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'), 210000, 200000],
      [
        400,
        anthropicError(
          'invalid_request_error',
          'input length and `max_tokens` exceed context limit: 198000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
        ),
        206192,
        200000,
      ],
      [413, anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.'), undefined, undefined],
    ]
    for (const [status, body, requested, limit] of cases) {
      const error = fromStatus(status, body)
      expect(error, JSON.stringify(body)).toBeInstanceOf(ContextTooLongError)
      expect(error).toMatchObject({ requestedTokens: requested, limitTokens: limit, retryable: false })
    }
  })

  it('maps 5xx and 529 to ProviderServerError, retryable', () => {
    for (const [status, body] of [
      [500, openAIError('The server had an error', 'server_error')],
      [502, '<html><body>Bad Gateway</body></html>'],
      [503, ''],
      [529, anthropicError('overloaded_error', 'Overloaded')],
    ] as const) {
      const error = fromStatus(status, body)
      expect(error, String(status)).toBeInstanceOf(ProviderServerError)
      expect(error.retryable).toBe(true)
    }
    expect(fromStatus(529, anthropicError('overloaded_error', 'Overloaded'))).toMatchObject({
      code: 'overloaded_error',
      providerMessage: 'Overloaded',
    })
    expect(fromStatus(502, '<html>Bad Gateway</html>').providerMessage).toBe(
      'an HTML page instead of an API error ("Bad Gateway"): is the baseURL an API endpoint, or is a proxy in the way?',
    )
  })

  it('maps other 4xx to ProviderRequestError with the provider message; 408 and 409 are retryable', () => {
    const notFound = fromStatus(404, { error: "model 'llama9' not found, try pulling it first" })
    expect(notFound).toBeInstanceOf(ProviderRequestError)
    expect(notFound).toMatchObject({ providerMessage: "model 'llama9' not found, try pulling it first", retryable: false })
    expect(notFound.message).toContain("model 'llama9' not found")
    expect(fromStatus(422, { detail: 'temperature: must be <= 2' }).providerMessage).toBe('temperature: must be <= 2')
    expect(fromStatus(408, '').retryable).toBe(true)
    expect(fromStatus(409, '').retryable).toBe(true)
  })

  it('lets x-should-retry override retryability of server and request errors', () => {
    expect(fromStatus(500, '', { 'x-should-retry': 'false' }).retryable).toBe(false)
    expect(fromStatus(400, '', { 'x-should-retry': 'true' }).retryable).toBe(true)
  })

  it('scrubs the API key from provider messages and clips long ones', () => {
    const error = fromStatus(401, openAIError('Incorrect API key provided: sk-secret-123.', 'invalid_request_error'))
    expect(error.providerMessage).toBe('Incorrect API key provided: [redacted].')
    expect(error.message).not.toContain('sk-secret-123')
    expect(fromStatus(400, 'x'.repeat(2000)).providerMessage?.length).toBeLessThan(510)
  })

  it('is a ThreadlensError and a ProviderError', () => {
    const error = fromStatus(500, '')
    expect(ThreadlensError.isInstance(error)).toBe(true)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error.name).toBe('ProviderServerError')
  })
})

describe('errorFromStreamPayload', () => {
  it("maps Anthropic's in-stream error types", () => {
    expect(errorFromStreamPayload(anthropicError('overloaded_error', 'Overloaded'), context)).toBeInstanceOf(ProviderServerError)
    expect(errorFromStreamPayload(anthropicError('rate_limit_error', 'slow down'), context)).toBeInstanceOf(RateLimitError)
    expect(errorFromStreamPayload(anthropicError('invalid_request_error', 'prompt is too long: 5 tokens > 4 maximum'), context)).toBeInstanceOf(
      ContextTooLongError,
    )
    expect(errorFromStreamPayload(anthropicError('overloaded_error', 'Overloaded'), context).status).toBeUndefined()
  })

  it('maps OpenRouter-style error chunks by their numeric code, else as server errors', () => {
    expect(errorFromStreamPayload({ error: { code: 502, message: 'Provider disconnected' } }, context)).toBeInstanceOf(ProviderServerError)
    expect(errorFromStreamPayload({ error: { code: 429, message: 'busy' } }, context)).toBeInstanceOf(RateLimitError)
    expect(errorFromStreamPayload({ error: { message: 'oops' } }, context)).toBeInstanceOf(ProviderServerError)
  })
})

describe('networkError', () => {
  it('names the origin, never the path, and scrubs the cause', () => {
    const error = networkError(context, 'no response (fetch failed)', new TypeError('fetch failed for https://x/?key=sk-secret-123'))
    expect(error).toBeInstanceOf(ProviderNetworkError)
    expect(error).toMatchObject({ origin: 'https://api.example', retryable: true, status: undefined })
    expect(String((error.cause as Error).message)).not.toContain('sk-secret-123')
  })
})

describe('scrubSecrets', () => {
  it('replaces every occurrence and ignores empty secrets', () => {
    expect(scrubSecrets('a KEY b KEY', ['KEY', ''])).toBe('a [redacted] b [redacted]')
  })
})
