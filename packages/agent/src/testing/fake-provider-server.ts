// Node-only test helper (node:http): imported by `*.test.ts` files, never by the package's entry point.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anthropicMessagesRoute } from './fake-anthropic-messages'
import { openAIChatRoute } from './fake-openai-chat'
import type { FakeAnswer, FakeResponse, FakeRoute, FakeStep, FakeStream, RecordedRequest } from './fake-script'

export interface FakeProviderServerOptions {
  /** The key clients must send (`Authorization: Bearer` for OpenAI, `x-api-key` for Anthropic). Default: `test-key`. */
  readonly apiKey?: string
  /** Estimated prompt tokens above which the provider's context-too-long error is returned. Default: no limit. */
  readonly maxContextTokens?: number
  /** Responses for valid requests, in order, shared by both routes. Default: none (`enqueue` them). */
  readonly script?: readonly FakeStep[]
  /** Bytes per socket write of a stream, so events and UTF-8 characters split at awkward places. Default: one event per write. */
  readonly writeSize?: number
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

export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string
  /** `<url>/v1`: the `baseURL` for both `openAICompatible` and `anthropic`. */
  readonly baseURL: string
  /** Every request received, in order, with what the server made of it. */
  readonly requests: readonly RecordedRequest[]
  /** Scripted responses not used yet. */
  readonly remainingSteps: number
  enqueue(...steps: FakeStep[]): void
  /** Resolves once the response to `request` has closed (finished, or dropped by either side); then `clientClosed` is final. */
  whenClosed(request: RecordedRequest): Promise<void>
  /** Stops the server and drops open connections (stalled streams included). */
  close(): Promise<void>
}

const routes: readonly FakeRoute[] = [openAIChatRoute, anthropicMessagesRoute]

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id, request-id',
}

/**
 * A local stand-in for the OpenAI Chat Completions and Anthropic Messages APIs, on 127.0.0.1 and
 * an ephemeral port, for tests. It checks each request as the real API would (auth header, fields,
 * roles, tool ordering and ids via core's `openAIChatProblems` / `anthropicMessagesProblems`, tool
 * shapes, stream flags) and answers a broken one with the provider's real 400 shape; a valid one
 * gets the next scripted step: a streamed reply in the provider's wire format, or a failure
 * (429, 5xx, 529, context too long…). CORS is open, so a browser page can call it too.
 */
export async function startFakeProviderServer(options: FakeProviderServerOptions = {}): Promise<FakeProviderServer> {
  const apiKey = options.apiKey ?? 'test-key'
  const queue: FakeStep[] = [...(options.script ?? [])]
  const requests: RecordedRequest[] = []
  const closed = new WeakMap<RecordedRequest, Promise<void>>()
  let calls = 0

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, body: { error: { message: `[fake server] ${String(error)}` } } })
      else response.destroy()
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const rawBody = Buffer.concat(chunks).toString('utf8')
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    const route = routes.find((candidate) => candidate.path === path)
    const method = request.method ?? 'GET'
    let body: unknown
    try {
      body = JSON.parse(rawBody)
    } catch {
      body = undefined
    }
    const record: RecordedRequest = { route: route?.name ?? 'unknown', method, path, headers, rawBody, body, status: 0, problems: [], clientClosed: false }
    let serverEnded = false
    closed.set(
      record,
      new Promise((resolve) => {
        response.on('close', () => {
          if (!response.writableFinished && !serverEnded) record.clientClosed = true
          resolve()
        })
      }),
    )
    requests.push(record)
    const answer = (reply: FakeResponse): void => {
      record.status = reply.status
      send(response, reply)
    }

    if (method === 'OPTIONS') {
      const allowHeaders = headers['access-control-request-headers'] ?? 'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access'
      record.status = 204
      response.writeHead(204, { ...corsHeaders, 'access-control-allow-headers': allowHeaders, 'access-control-max-age': '600' })
      response.end()
      return
    }
    if (route === undefined || method !== 'POST') {
      answer({ status: 404, body: { error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } } })
      return
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
    const promptTokens = options.countPromptTokens?.(route.name as 'openai-chat' | 'anthropic-messages', valid) ?? route.promptTokens(valid)
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

    if ((scripted.firstByteDelayMs ?? 0) > 0) {
      await new Promise((resolve) => setTimeout(resolve, scripted.firstByteDelayMs))
      if (response.destroyed) return
    }
    record.status = 200
    const stream = 'rawFrames' in scripted ? { frames: scripted.rawFrames, end: scripted.end } : route.stream(scripted, valid, { number: calls, promptTokens })
    await writeStream(response, stream, options.writeSize, `req_fake_${calls}`)
    if (stream.end === 'finish') {
      serverEnded = true
      response.end()
    } else if (stream.end === 'disconnect') {
      serverEnded = true
      response.socket?.destroy()
    }
    // `stall`: the response stays open until the client goes away or the server closes.
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    get remainingSteps() {
      return queue.length
    },
    enqueue(...steps) {
      queue.push(...steps)
    },
    whenClosed(request) {
      const promise = closed.get(request)
      if (promise === undefined) throw new Error('[fake server] whenClosed: this request was not received by this server')
      return promise
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error))))
    },
  }
}

function send(response: ServerResponse, reply: FakeResponse): void {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
  const isJson = typeof reply.body !== 'string'
  response.writeHead(reply.status, {
    ...corsHeaders,
    ...(isJson ? { 'content-type': 'application/json' } : {}),
    'x-request-id': 'req_fake_error',
    ...reply.headers,
  })
  response.end(text)
}

async function writeStream(response: ServerResponse, stream: FakeStream, writeSize: number | undefined, requestId: string): Promise<void> {
  response.writeHead(200, {
    ...corsHeaders,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': requestId,
    'request-id': requestId,
  })
  const writes: Buffer[] = []
  if (writeSize === undefined) for (const frame of stream.frames) writes.push(Buffer.from(frame, 'utf8'))
  else {
    const all = Buffer.from(stream.frames.join(''), 'utf8')
    for (let start = 0; start < all.length; start += writeSize) writes.push(all.subarray(start, start + writeSize))
  }
  for (const piece of writes) {
    if (response.destroyed) return
    response.write(piece)
    // Yield to the event loop so pieces leave as separate writes, as a real stream's would.
    await new Promise((resolve) => setImmediate(resolve))
  }
}
