import type { ProviderToolNames } from '@threadlens/core/parts'
import { secretsOf } from './client-options'
import { eventsOf, type FetchFunction, globalFetch, joinURL, originOf, postForStream } from './http-stream'
import type { ModelClient, ModelClientProvider, ModelRequest, ModelStreamEvent } from './model-client'
import { type CallContext, networkError } from './provider-errors'
import { type RetryOptions, retrySettings } from './retry'
import { requestToolNames, withStoredToolNames } from './request-tool-names'
import type { ServerSentEvent } from './server-sent-events'
import { type RetryNotice, streamWithRetries } from './stream-with-retries'

/** Reads one provider's event stream into model stream events; throws typed errors for in-band failures. */
export type ProviderStreamReader = (events: AsyncIterable<ServerSentEvent>, context: CallContext) => AsyncGenerator<ModelStreamEvent, void, undefined>

/**
 * What one provider's client adds to the shared HTTP core: where to post, its own headers, the
 * request body and the reader of its event stream. Everything else (the attempt, status and error
 * classification, retries with Retry-After, timeouts, abort, the streaming read) is the core's.
 */
export interface HttpModelClientParts<TBody> {
  readonly provider: ModelClientProvider
  readonly model: string
  /** The API root; `path` is appended with one slash. */
  readonly baseURL: string
  readonly path: string
  /** Scrubbed from every error; the provider puts it in `providerHeaders`. */
  readonly apiKey: string | undefined
  /** The provider's own headers (credentials, API version); the app's `headers` win over them. */
  readonly providerHeaders: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly fetch: FetchFunction | undefined
  readonly retry: RetryOptions
  readonly onRetry: ((notice: RetryNotice) => void) | undefined
  readonly requestBody: (request: ModelRequest, toolNames: ProviderToolNames) => TBody
  readonly readStream: ProviderStreamReader
}

/**
 * A frozen `ModelClient` over HTTP + server-sent events. Each attempt posts the provider's body,
 * turns a non-2xx status into its typed error, and reads the stream with the provider's reader;
 * `streamWithRetries` bounds the attempts and turns an abort into `finish` `{ stopReason: 'abort' }`.
 * The API key lives only in this closure (headers and `context.secrets`), never on the client.
 */
export function httpModelClient<TBody>(parts: HttpModelClientParts<TBody>): ModelClient {
  const fetchFunction = parts.fetch ?? globalFetch
  const url = joinURL(parts.baseURL, parts.path)
  const headers: Readonly<Record<string, string>> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...parts.providerHeaders,
    ...parts.headers,
  }
  const context: CallContext = {
    provider: parts.provider,
    model: parts.model,
    origin: originOf(parts.baseURL),
    secrets: secretsOf(parts.apiKey, parts.headers),
  }
  const retry = retrySettings(parts.retry)

  async function* attempt(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const toolNames = requestToolNames(request)
    const body = await postForStream(fetchFunction, url, headers, parts.requestBody(request, toolNames), signal, context)
    yield* withStoredToolNames(parts.readStream(eventsOf(body, signal, context), context), toolNames)
  }

  return Object.freeze({
    id: parts.model,
    provider: parts.provider,
    stream: (request: ModelRequest) =>
      streamWithRetries((signal) => attempt(request, signal), {
        signal: request.signal,
        retry,
        onRetry: [parts.onRetry, request.onRetry],
        timeoutError: (problem) => networkError(context, problem, undefined),
      }),
  })
}
