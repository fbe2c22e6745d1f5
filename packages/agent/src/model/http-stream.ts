import { errorFromResponse, type CallContext, isRecord, malformedStreamError, networkError } from './provider-errors'
import { readServerSentEvents, type ServerSentEvent } from './server-sent-events'

/** A `fetch` implementation; the global one when a client is given none. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>

// Resolved per call, not at client creation, so a page (or test) that replaces `fetch` later is honoured.
export const globalFetch: FetchFunction = (input, init) => globalThis.fetch(input, init)

/**
 * POSTs a JSON body and returns the streaming response. Non-2xx statuses become typed errors,
 * a failed fetch a `ProviderNetworkError`; once `signal` aborts, the raw abort error is rethrown.
 */
export async function postForStream(
  fetchFunction: FetchFunction,
  url: string,
  headers: Readonly<Record<string, string>>,
  body: unknown,
  signal: AbortSignal | undefined,
  context: CallContext,
): Promise<ReadableStream<Uint8Array>> {
  let response: Response
  try {
    response = await fetchFunction(url, {
      method: 'POST',
      headers: { ...headers },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    })
  } catch (error) {
    if (signal?.aborted === true) throw error
    throw networkError(context, `no response (${error instanceof Error ? error.message : String(error)})`, error)
  }
  if (!response.ok) throw await errorFromResponse(response, context, Date.now())
  const stream = response.body
  const problem = notAnEventStream(response.headers.get('content-type') ?? '', stream === null)
  if (problem !== undefined || stream === null) {
    await stream?.cancel().catch(() => undefined)
    throw malformedStreamError(context, problem ?? 'expected a text/event-stream response but got no body', false)
  }
  return stream
}

// Why a 2xx response cannot be the stream asked for; not retried, as sending again gets the same answer.
function notAnEventStream(contentType: string, bodyless: boolean): string | undefined {
  if (bodyless || contentType.includes('application/json')) {
    return `expected a text/event-stream response but got ${contentType === '' ? 'no body' : contentType}: does this server support streaming?`
  }
  // A web app's fallback page or a captive portal answers 200 with HTML.
  if (contentType.includes('text/html'))
    return 'expected a text/event-stream response but got an HTML page: is the baseURL an API endpoint, or is a proxy in the way?'
  return undefined
}

/** The server-sent events of a body; a connection that breaks off becomes a `ProviderNetworkError`. */
export async function* eventsOf(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  context: CallContext,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const events = readServerSentEvents(body)
  try {
    for (;;) {
      let next: IteratorResult<ServerSentEvent, void>
      try {
        next = await events.next()
      } catch (error) {
        if (signal?.aborted === true) throw error
        throw networkError(context, 'the connection broke off during the reply', error)
      }
      if (next.done === true) return
      yield next.value
    }
  } finally {
    // Stopping early (or failing while parsing) cancels the body, which releases the connection.
    await events.return(undefined)
  }
}

/** Parses an event's JSON data; bad JSON is a malformed stream. */
export function parseEventData(event: Pick<ServerSentEvent, 'data'>, context: CallContext): unknown {
  try {
    return JSON.parse(event.data)
  } catch {
    throw malformedStreamError(context, `an event's data is not JSON: ${event.data}`)
  }
}

/** Parses an event's JSON data, which every provider sends as an object; anything else is a malformed stream named as `what`. */
export function parseEventObject(event: Pick<ServerSentEvent, 'data'>, context: CallContext, what: string): { readonly [key: string]: unknown } {
  const value = parseEventData(event, context)
  if (!isRecord(value)) throw malformedStreamError(context, `${what} is not an object: ${event.data}`)
  return value
}

/** Scheme, host and port of a base URL, for error messages (never its path or query, which might hold a key). */
export function originOf(baseURL: string): string {
  return new URL(baseURL).origin
}

/** `base` and `path` joined with exactly one slash. */
export function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}
