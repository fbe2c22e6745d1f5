import {
  ContextTooLongError,
  ProviderAuthError,
  ProviderError,
  type ProviderErrorDetails,
  ProviderNetworkError,
  ProviderRequestError,
  ProviderServerError,
  RateLimitError,
} from './errors'
import type { ModelClientProvider } from './model-client'
import { retryAfterMs } from './retry-after'

/** Who was called, for error messages; `secrets` (the API key) are scrubbed from anything a provider says. */
export interface CallContext {
  readonly provider: ModelClientProvider
  readonly model: string
  /** Scheme, host and port of the base URL. */
  readonly origin: string
  readonly secrets: readonly string[]
}

// Provider messages are shown to users and logged: keep them to a readable size.
const maxProviderMessageLength = 500

// OpenAI, vLLM, OpenRouter, llama.cpp, LM Studio and Anthropic phrasings of "the prompt does not fit".
const contextTooLongPattern =
  /context[_ ]length|maximum context|context (window|size|limit)|prompt is too long|too many tokens|exceed_context_size|input is too long/i

// Anthropic's error types, for errors that arrive inside a stream with no HTTP status.
const statusByErrorType: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  context_length_exceeded: 400,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
}

/** Replaces every occurrence of a secret with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text
  for (const secret of secrets) if (secret !== '') scrubbed = scrubbed.split(secret).join('[redacted]')
  return scrubbed
}

/** The typed error for a non-2xx response. Reads (and so consumes) the body. */
export async function errorFromResponse(response: Response, context: CallContext, now: number): Promise<ProviderError> {
  const text = await response.text().catch(() => '')
  return errorFromStatus(response.status, parseJson(text), text, response.headers, context, now)
}

/** The typed error for an HTTP status and its (parsed) error body. */
export function errorFromStatus(status: number, body: unknown, rawText: string, headers: Headers, context: CallContext, now: number): ProviderError {
  const described = describe(body, rawText, context.secrets)
  const details: ProviderErrorDetails = {
    provider: context.provider,
    model: context.model,
    status,
    providerMessage: described.message,
    code: described.code,
    requestId: headers.get('x-request-id') ?? headers.get('request-id') ?? described.requestId,
  }
  const shouldRetry = headers.get('x-should-retry')
  const override = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : undefined
  return classify(status, described, details, override, () => retryAfterMs(headers, now))
}

/** The typed error for an error object a provider sent inside a stream (Anthropic `error` event, an OpenAI-compatible `error` chunk). */
export function errorFromStreamPayload(payload: unknown, context: CallContext): ProviderError {
  const described = describe(payload, '', context.secrets)
  const details: ProviderErrorDetails = {
    provider: context.provider,
    model: context.model,
    status: undefined,
    providerMessage: described.message,
    code: described.code,
    requestId: described.requestId,
  }
  const status = described.numericCode ?? described.codes.map((code) => statusByErrorType[code]).find((found) => found !== undefined) ?? 500
  return classify(status, described, details, undefined, () => undefined)
}

/** A fetch that failed before a response, or a body that broke off. */
export function networkError(context: CallContext, problem: string, cause: unknown): ProviderNetworkError {
  const details: ProviderErrorDetails = {
    provider: context.provider,
    model: context.model,
    status: undefined,
    providerMessage: undefined,
    code: undefined,
    requestId: undefined,
  }
  return new ProviderNetworkError(details, context.origin, scrubSecrets(problem, context.secrets), { cause: scrubCause(cause, context.secrets) })
}

/** A stream that ended before the provider said the reply was over (no `[DONE]`, `finish_reason`, `message_stop` or stop reason). */
export function streamCutOffError(context: CallContext): ProviderNetworkError {
  return networkError(context, 'the stream ended before the model finished its reply', undefined)
}

/** A stream the client could not read (bad JSON, wrong shape): the server's fault, retried like a 5xx. */
export function malformedStreamError(context: CallContext, problem: string, retryable = true): ProviderServerError {
  const details: ProviderErrorDetails = {
    provider: context.provider,
    model: context.model,
    status: undefined,
    // Scrub, then clip: clipping first could cut a key in two and leave its first half behind.
    providerMessage: clip(scrubSecrets(problem, context.secrets)),
    code: undefined,
    requestId: undefined,
  }
  return new ProviderServerError(details, { what: 'malformed stream', retryable })
}

function classify(
  status: number,
  described: Described,
  details: ProviderErrorDetails,
  retryOverride: boolean | undefined,
  readRetryAfter: () => number | undefined,
): ProviderError {
  const message = described.message ?? ''
  const codes = described.codes
  if (status === 413 || (status >= 400 && status < 500 && (codes.includes('context_length_exceeded') || contextTooLongPattern.test(message)))) {
    const tokens = tokensOf(message)
    return new ContextTooLongError(details, described.promptTokens ?? tokens.requested, described.contextSize ?? tokens.limit)
  }
  if (status === 401 || status === 403) return new ProviderAuthError(details)
  if (status === 429) return new RateLimitError(details, readRetryAfter(), codes.includes('insufficient_quota'))
  if (status >= 500) return new ProviderServerError(details, retryOverride === undefined ? {} : { retryable: retryOverride })
  return new ProviderRequestError(details, retryOverride ?? (status === 408 || status === 409))
}

interface Described {
  readonly message: string | undefined
  readonly code: string | undefined
  /** Every code and type the body named, to match against. */
  readonly codes: readonly string[]
  readonly numericCode: number | undefined
  readonly requestId: string | undefined
  /** llama.cpp's `n_ctx` and `n_prompt_tokens`, when the error body carries them. */
  readonly contextSize: number | undefined
  readonly promptTokens: number | undefined
}

// Error bodies: OpenAI `{ error: { message, type, code } }`, Anthropic `{ type: 'error', error: { type, message }, request_id }`,
// Ollama `{ error: '...' }`, FastAPI-style servers `{ detail }` or `{ message }`, or plain text / HTML.
function describe(body: unknown, rawText: string, secrets: readonly string[]): Described {
  let message: string | undefined
  const codes: string[] = []
  let numericCode: number | undefined
  let requestId: string | undefined
  let contextSize: number | undefined
  let promptTokens: number | undefined
  if (isRecord(body)) {
    const error = body['error']
    requestId = stringOf(body['request_id'])
    if (isRecord(error)) {
      message = stringOf(error['message'])
      contextSize = countOf(error['n_ctx'])
      promptTokens = countOf(error['n_prompt_tokens'])
      for (const key of ['code', 'type']) {
        const value = error[key]
        if (typeof value === 'string' && value !== '') codes.push(value)
        if (typeof value === 'number' && Number.isInteger(value)) numericCode = value
      }
    } else if (typeof error === 'string') {
      message = error
    }
    message ??= stringOf(body['message']) ?? (typeof body['detail'] === 'string' ? body['detail'] : undefined)
  } else if (looksLikeHtml(rawText)) {
    // A proxy's or gateway's error page: its title says more than a screenful of markup. Scrubbed
    // before anything is cut from it, as every provider text is.
    const page = scrubSecrets(rawText, secrets)
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(page)?.[1] ?? page.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
    const gist = title.replace(/\s+/g, ' ').trim().slice(0, 120)
    message = `an HTML page instead of an API error${gist === '' ? '' : ` ("${gist}")`}: is the baseURL an API endpoint, or is a proxy in the way?`
  } else if (rawText.trim() !== '') {
    message = rawText.trim()
  }
  return {
    // Scrub, then clip: clipping first could cut a key in two and leave its first half behind.
    message: message === undefined ? undefined : clip(scrubSecrets(message, secrets)),
    code: codes[0],
    codes,
    numericCode,
    requestId,
    contextSize,
    promptTokens,
  }
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(text)
}

function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined
}

function tokensOf(message: string): { requested: number | undefined; limit: number | undefined } {
  const sum = /(\d+) \+ (\d+) > (\d+)/.exec(message)
  if (sum !== null) return { requested: Number(sum[1]) + Number(sum[2]), limit: Number(sum[3]) }
  const anthropic = /(\d+) tokens > (\d+)/.exec(message)
  if (anthropic !== null) return { requested: Number(anthropic[1]), limit: Number(anthropic[2]) }
  // OpenAI and vLLM: "maximum context length is N tokens. However, you requested M tokens" / "your
  // messages resulted in M tokens" / "your request has M input tokens"; LM Studio: "keep the first
  // M tokens … loaded with context length of only N tokens".
  const limit = /maximum context length is (\d+)/i.exec(message)?.[1] ?? /context length of (?:only )?(\d+)/i.exec(message)?.[1]
  const requested = /(?:resulted in|requested|request has|keep the first) (\d+) (?:input )?tokens/i.exec(message)?.[1]
  return { requested: requested === undefined ? undefined : Number(requested), limit: limit === undefined ? undefined : Number(limit) }
}

// Network errors from fetch never carry headers, but a cause's message might quote a URL with a key in it.
function scrubCause(cause: unknown, secrets: readonly string[]): unknown {
  if (!(cause instanceof Error)) return cause
  const text = `${cause.name}: ${cause.message}`
  const scrubbed = scrubSecrets(text, secrets)
  return scrubbed === text ? cause : new Error(scrubbed)
}

function clip(text: string): string {
  return text.length <= maxProviderMessageLength ? text : `${text.slice(0, maxProviderMessageLength)}…`
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
