import { errorFromResponse, type CallContext, malformedStreamError, networkError } from './provider-errors'
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
    response = await fetchFunction(url, { method: 'POST', headers: { ...headers }, body: JSON.stringify(body), ...(signal === undefined ? {} : { signal }) })
  } catch (error) {
    if (signal?.aborted === true) throw error
    throw networkError(context, `no response (${error instanceof Error ? error.message : String(error)})`, error)
  }
  if (!response.ok) throw await errorFromResponse(response, context, Date.now())
  const contentType = response.headers.get('content-type') ?? ''
  if (response.body === null || contentType.includes('application/json')) {
    await response.body?.cancel().catch(() => undefined)
    throw malformedStreamError(
      context,
      `expected a text/event-stream response but got ${contentType === '' ? 'no body' : contentType}: does this server support streaming?`,
      false,
    )
  }
  return response.body
}

/** The server-sent events of a body; a connection that breaks off becomes a `ProviderNetworkError`. */
export async function* eventsOf(body: ReadableStream<Uint8Array>, signal: AbortSignal | undefined, context: CallContext): AsyncGenerator<ServerSentEvent, void, undefined> {
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
export function parseEventData(event: ServerSentEvent, context: CallContext): unknown {
  try {
    return JSON.parse(event.data)
  } catch {
    throw malformedStreamError(context, `an event's data is not JSON: ${event.data}`)
  }
}

/** Scheme, host and port of a base URL, for error messages (never its path or query, which might hold a key). */
export function originOf(baseURL: string): string {
  return new URL(baseURL).origin
}

/** `base` and `path` joined with exactly one slash. */
export function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}
