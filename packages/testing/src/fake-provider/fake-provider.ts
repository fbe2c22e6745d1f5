// The transport-free half of the fake providers: what to answer to one request. The Node server
// (fake-provider-server.ts) and the Playwright `page.route` adapter (route-fake-provider.ts) both
// answer from it, so unit tests and e2e specs script the same misbehaving provider.
import { anthropicMessagesRoute } from './fake-anthropic-messages'
import { openAIChatRoute } from './fake-openai-chat'
import type { FakeAnswer, FakeResponse, FakeRoute, FakeStep, FakeStream, RecordedRequest } from './fake-script'

export interface FakeProviderOptions {
  /**
   * The key clients must send (`Authorization: Bearer` for OpenAI, `x-api-key` for Anthropic);
   * `null` accepts any key or none, as a local server (Ollama, LM Studio) does. Default: `test-key`.
   */
  readonly apiKey?: string | null
  /** Estimated prompt tokens above which the provider's context-too-long error is returned. Default: no limit. */
  readonly maxContextTokens?: number
  /** Responses for valid requests, in order, shared by both routes. Default: none (`enqueue` them). */
  readonly script?: readonly FakeStep[]
  /**
   * The answer once the script is used up, as often as asked: a server that misbehaves forever
   * (e.g. `{ fail: 'context-too-long' }`). Default: none (a 400 saying the script is empty).
   */
  readonly whenEmpty?: FakeStep
  /**
   * The provider's own prompt count, from the request body as it arrived (e.g. cl100k over the
   * messages plus a per-message overhead): reported as usage and checked against `maxContextTokens`,
   * so tests can calibrate a local counter against a server that counts differently.
   * Default: a character heuristic over the JSON of the prompt parts.
   */
  readonly countPromptTokens?: (route: 'openai-chat' | 'anthropic-messages', body: { readonly [key: string]: unknown }) => number
}

/** A request as any transport received it. */
export interface IncomingFakeRequest {
  readonly method: string
  /** The URL path, starting at `/v1/…`. */
  readonly path: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly rawBody: string
}

/** What a transport must send back. */
export type FakeOutcome =
  | { readonly kind: 'preflight'; readonly headers: Readonly<Record<string, string>> }
  | { readonly kind: 'response'; readonly response: FakeResponse }
  | { readonly kind: 'stream'; readonly stream: FakeStream; readonly headers: Readonly<Record<string, string>>; readonly firstByteDelayMs: number }

export interface FakeProvider {
  /** Every request received, in order, with what the provider made of it. */
  readonly requests: readonly RecordedRequest[]
  /** Scripted responses not used yet. */
  readonly remainingSteps: number
  enqueue(...steps: FakeStep[]): void
  /** Records `request` and decides the answer; the transport then sets `record.clientClosed` as the connection ends. */
  receive(request: IncomingFakeRequest): { readonly record: RecordedRequest; readonly outcome: FakeOutcome }
}

const routes: readonly FakeRoute[] = [openAIChatRoute, anthropicMessagesRoute]

export const corsHeaders: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id, request-id',
}

/** The headers of a whole (non-streaming) answer: JSON unless the body is raw text. */
export function responseHeaders(reply: FakeResponse): Record<string, string> {
  return {
    ...corsHeaders,
    ...(typeof reply.body === 'string' ? {} : { 'content-type': 'application/json' }),
    'x-request-id': 'req_fake_error',
    ...reply.headers,
  }
}

/** The body of a whole answer as sent. */
export function responseText(reply: FakeResponse): string {
  return typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
}

/**
 * A scripted stand-in for the OpenAI Chat Completions and Anthropic Messages APIs. It checks each
 * request as the real API would (auth header, fields, roles, tool ordering and ids via core's
 * `openAIChatProblems` / `anthropicMessagesProblems`, tool shapes, stream flags) and answers a
 * broken one with the provider's real 400 shape; a valid one gets the next scripted step: a
 * streamed reply in the provider's wire format, or a failure (429, 5xx, 529, context too long…).
 */
export function createFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  const apiKey = options.apiKey === undefined ? 'test-key' : options.apiKey
  const queue: FakeStep[] = [...(options.script ?? [])]
  const requests: RecordedRequest[] = []
  let calls = 0

  function decide(record: RecordedRequest, route: FakeRoute | undefined): FakeOutcome {
    const { method, path, headers, body } = record
    const answer = (response: FakeResponse): FakeOutcome => {
      record.status = response.status
      return { kind: 'response', response }
    }
    if (method === 'OPTIONS') {
      const allowHeaders =
        headers['access-control-request-headers'] ??
        'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access'
      record.status = 204
      return { kind: 'preflight', headers: { ...corsHeaders, 'access-control-allow-headers': allowHeaders, 'access-control-max-age': '600' } }
    }
    if (route === undefined || method !== 'POST') {
      return answer({
        status: 404,
        body: { error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } },
      })
    }
    const headerFailure = route.checkHeaders(headers, apiKey)
    if (headerFailure !== undefined) return answer(headerFailure)
    if (body === undefined) return answer(route.notJson())
    const problems = route.problems(body)
    if (problems.length > 0) {
      record.problems = problems
      return answer(route.invalid(problems))
    }
    const valid = body as { readonly [key: string]: unknown }
    const promptTokens = options.countPromptTokens?.(route.name, valid) ?? route.promptTokens(valid)
    if (options.maxContextTokens !== undefined && promptTokens > options.maxContextTokens) {
      return answer(route.contextTooLong(promptTokens, options.maxContextTokens))
    }
    const step = queue.shift() ?? options.whenEmpty
    if (step === undefined) {
      record.problems = ['[fake server] no scripted response is left for this request: enqueue one']
      return answer(route.invalid(record.problems))
    }
    calls += 1
    const scripted: FakeAnswer = typeof step === 'function' ? step(record) : step
    if ('fail' in scripted) return answer(route.failure(scripted, valid))
    record.status = 200
    const stream =
      'rawFrames' in scripted ? { frames: scripted.rawFrames, end: scripted.end } : route.stream(scripted, valid, { number: calls, promptTokens })
    const requestId = `req_fake_${calls}`
    return {
      kind: 'stream',
      stream,
      firstByteDelayMs: scripted.firstByteDelayMs ?? 0,
      headers: {
        ...corsHeaders,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-request-id': requestId,
        'request-id': requestId,
      },
    }
  }

  return {
    requests,
    get remainingSteps() {
      return queue.length
    },
    enqueue(...steps) {
      queue.push(...steps)
    },
    receive(request) {
      const route = routes.find((candidate) => candidate.path === request.path)
      let body: unknown
      try {
        body = JSON.parse(request.rawBody)
      } catch {
        body = undefined
      }
      const record: RecordedRequest = {
        route: route?.name ?? 'unknown',
        method: request.method,
        path: request.path,
        headers: request.headers,
        rawBody: request.rawBody,
        body,
        status: 0,
        problems: [],
        clientClosed: false,
      }
      requests.push(record)
      return { record, outcome: decide(record, route) }
    },
  }
}
