// A reference blob endpoint for `@threadlens/sync` attachments (`httpBlobEndpoint`): `PUT /<id>`
// stores the bytes if they hash to `<id>` (`sha256-<hex>`), `GET /<id>` gives them back. In memory,
// on the loopback, for development and tests; a production app puts its own storage (S3, R2, a
// database) behind the same two requests, with its own auth.
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface BlobServer {
  readonly baseUrl: string
  /** How many blobs it holds. */
  readonly size: () => number
  stop(): Promise<void>
}

const maxBytes = 32 * 1024 * 1024
const idPattern = /^\/(sha256-[0-9a-f]{64})$/

export async function startBlobServer(options: { readonly port?: number } = {}): Promise<BlobServer> {
  const blobs = new Map<string, { readonly type: string; readonly bytes: Buffer }>()
  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*')
    response.setHeader('Access-Control-Allow-Methods', 'GET, PUT, OPTIONS')
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization')
    if (request.method === 'OPTIONS') return void response.writeHead(204).end()
    const id = idPattern.exec(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname))?.[1]
    if (id === undefined) return void response.writeHead(404).end('not a blob id')
    if (request.method === 'GET') {
      const blob = blobs.get(id)
      if (blob === undefined) return void response.writeHead(404).end()
      return void response.writeHead(200, { 'Content-Type': blob.type }).end(blob.bytes)
    }
    if (request.method !== 'PUT') return void response.writeHead(405).end()
    const chunks: Buffer[] = []
    let received = 0
    request.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (received > maxBytes) {
        response.writeHead(413).end('over 32 MiB')
        request.destroy()
        return
      }
      chunks.push(chunk)
    })
    request.on('end', () => {
      if (response.headersSent) return
      const bytes = Buffer.concat(chunks)
      if (`sha256-${createHash('sha256').update(bytes).digest('hex')}` !== id)
        return void response.writeHead(400).end('the bytes do not hash to the id')
      blobs.set(id, { type: request.headers['content-type'] ?? 'application/octet-stream', bytes })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    size: () => blobs.size,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
