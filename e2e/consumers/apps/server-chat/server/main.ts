// The app's server, on node:http: the built page (dist/) and the README's route (server-route.ts,
// copied in from @threadlens/ai-sdk's examples) with the mock model: POST /api/chat, and
// GET / DELETE /api/chat/<chatId>/stream to resume or stop a running reply.
// Usage: node dist-server/main.js <port>
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { extname } from 'node:path'
import { shopModel } from './model'
import { chatRoute, inMemoryReplies, replyRoute } from './server-route'

const replies = inMemoryReplies()
const POST = chatRoute(shopModel(), replies)
const { GET, DELETE } = replyRoute(replies)
const dist = new URL('../dist/', import.meta.url)
const types: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
}

async function toRequest(incoming: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const headers = Object.entries(incoming.headers).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, String(value)] as [string, string]],
  )
  return new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`), {
    method: incoming.method,
    headers,
    body: chunks.length === 0 ? undefined : Buffer.concat(chunks),
  })
}

/** Writes a fetch Response; a reader that goes away (a reload) cancels only its own copy of the reply. */
async function reply(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers))
  if (response.body === null) return void outgoing.end()
  const body = response.body.getReader()
  outgoing.on('close', () => void body.cancel().catch(() => {}))
  try {
    for (let read = await body.read(); !read.done; read = await body.read()) outgoing.write(read.value)
  } finally {
    outgoing.end()
  }
}

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (pathname === '/api/chat' && request.method === 'POST') return POST(request)
  if (/^\/api\/chat\/[^/]+\/stream$/.test(pathname)) {
    if (request.method === 'GET') return GET(request)
    if (request.method === 'DELETE') return DELETE(request)
  }
  if (request.method !== 'GET' || pathname.includes('..')) return new Response('not found', { status: 404 })
  const file = pathname === '/' ? 'index.html' : pathname.slice(1)
  try {
    return new Response(await readFile(new URL(file, dist)), { headers: { 'content-type': types[extname(file)] ?? 'application/octet-stream' } })
  } catch {
    return new Response('not found', { status: 404 })
  }
}

createServer((incoming, outgoing) => {
  toRequest(incoming)
    .then(handle)
    .then((response) => reply(response, outgoing))
    .catch((error: unknown) => {
      console.error(error)
      if (!outgoing.headersSent) outgoing.writeHead(500)
      outgoing.end()
    })
}).listen(Number(process.argv[2]), '127.0.0.1')
