// The reference server answers CORS preflights itself (allow-origin *, the protocol's request
// headers, the Stream-* / Producer-* response headers exposed) but leaves If-None-Match out of
// Access-Control-Allow-Headers, so a browser client revalidating a read with its ETag fails the
// preflight (the conformance suite's "should allow If-None-Match in CORS preflight responses").
// This adds the missing names to the header the server sets, on every response of its HTTP server.
import { Server, type IncomingMessage, type ServerResponse } from 'node:http'
import type { DurableStreamTestServer } from '@durable-streams/server'
import { SyncServerError } from './options.ts'

const allowHeadersName = 'access-control-allow-headers'
/** Request headers a browser client may send that the reference server does not list. */
export const extraAllowedRequestHeaders: readonly string[] = ['If-None-Match']

function withExtraNames(listed: string): string {
  const present = new Set(listed.split(',').map((name) => name.trim().toLowerCase()))
  const missing = extraAllowedRequestHeaders.filter((name) => !present.has(name.toLowerCase()))
  return missing.length === 0 ? listed : `${listed}, ${missing.join(', ')}`
}

/** Makes every response of `server` (already started) allow the extra request headers. */
export function allowExtraRequestHeaders(server: DurableStreamTestServer): void {
  // The started server keeps its node:http Server in a field the typings mark private
  // (@durable-streams/server is pinned to an exact version; this fails loudly if that changes).
  const http: unknown = (server as unknown as { server?: unknown }).server
  if (!(http instanceof Server)) {
    throw new SyncServerError('start-failed', '@durable-streams/server no longer keeps its http.Server in `server`: update server/cors.ts')
  }
  // Runs before the server's own request handler, which sets the allow-list synchronously.
  http.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    const setHeader = response.setHeader.bind(response)
    response.setHeader = (name, value) =>
      setHeader(name, name.toLowerCase() === allowHeadersName && typeof value === 'string' ? withExtraNames(value) : value)
  })
}
