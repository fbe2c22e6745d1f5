// Node-only test helper (node:http): imported by tests and benches, never by a browser page.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createFakeProvider, type FakeProviderOptions, responseHeaders, responseText } from './fake-provider'
import type { FakeResponse, FakeStep, FakeStream, RecordedRequest } from './fake-script'

export interface FakeProviderServerOptions extends FakeProviderOptions {
  /** Bytes per socket write of a stream, so events and UTF-8 characters split at awkward places. Default: one event per write. */
  readonly writeSize?: number
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

/**
 * The fake providers (`createFakeProvider`) on 127.0.0.1 and an ephemeral port, for tests: real
 * sockets, so streams can be split mid-character, stall, or drop the connection half-way. CORS is
 * open, so a browser page can call it too.
 */
export async function startFakeProviderServer(options: FakeProviderServerOptions = {}): Promise<FakeProviderServer> {
  const provider = createFakeProvider(options)
  const closed = new WeakMap<RecordedRequest, Promise<void>>()

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, body: { error: { message: `[fake server] ${String(error)}` } } })
      else response.destroy()
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
    const { record, outcome } = provider.receive({
      method: request.method ?? 'GET',
      path: new URL(request.url ?? '/', 'http://127.0.0.1').pathname,
      headers,
      rawBody: Buffer.concat(chunks).toString('utf8'),
    })
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
    if (outcome.kind === 'preflight') {
      response.writeHead(204, outcome.headers)
      response.end()
      return
    }
    if (outcome.kind === 'response') return send(response, outcome.response)

    if (outcome.firstByteDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, outcome.firstByteDelayMs))
      if (response.destroyed) return
    }
    response.writeHead(200, outcome.headers)
    await writeStream(response, outcome.stream, options.writeSize)
    if (outcome.stream.end === 'finish') {
      serverEnded = true
      response.end()
    } else if (outcome.stream.end === 'disconnect') {
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
    requests: provider.requests,
    get remainingSteps() {
      return provider.remainingSteps
    },
    enqueue(...steps) {
      provider.enqueue(...steps)
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
  response.writeHead(reply.status, responseHeaders(reply))
  response.end(responseText(reply))
}

async function writeStream(response: ServerResponse, stream: FakeStream, writeSize: number | undefined): Promise<void> {
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
