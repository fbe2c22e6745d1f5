import type { Entry } from '@threadlens/core'
import type { AttachmentStore } from '@threadlens/store/attachments'
import { attachmentIdOf, maxAttachmentBytes } from '@threadlens/store/attachments'
import { SyncError } from './errors'
import type { SyncHeaders } from './stream-http'
import type { WireEntry } from './wire'

/**
 * Where attachment bytes go: never into a stream (an entry carries only the reference, the
 * `sha256-…` content hash), but to a blob endpoint the app provides, keyed by that hash. The
 * bytes a device reads back are checked against their hash before they are kept.
 */
export interface BlobEndpoint {
  /** Stores `blob` under `id` (its `sha256-<hex>` content hash); storing bytes already there is a no-op. */
  put(id: string, blob: Blob): Promise<void>
  /** The bytes stored under `id`, or `undefined` when the endpoint has none. */
  get(id: string): Promise<Blob | undefined>
}

export interface HttpBlobEndpointOptions {
  /** Each blob is at `<url>/<id>`: `PUT` stores it, `GET` reads it (404: none). */
  readonly url: string
  readonly headers?: SyncHeaders
  readonly fetch?: typeof fetch
}

/** A `BlobEndpoint` over plain HTTP: `PUT <url>/<id>` with the bytes, `GET <url>/<id>`. */
export function httpBlobEndpoint(options: HttpBlobEndpointOptions): BlobEndpoint {
  const base = options.url.replace(/\/+$/, '')
  const call = async (id: string, init: RequestInit): Promise<Response> => {
    const url = `${base}/${encodeURIComponent(id)}`
    const extra = options.headers === undefined ? {} : await options.headers()
    try {
      return await (options.fetch ?? globalThis.fetch)(url, {
        ...init,
        headers: { ...extra, ...(init.headers as Record<string, string> | undefined) },
        signal: AbortSignal.timeout(120_000),
      })
    } catch (error) {
      throw new SyncError('network', url, `The blob endpoint did not answer ${init.method} ${url}: ${String(error)}`, { cause: error })
    }
  }
  const refused = (response: Response, id: string, what: 'store' | 'give'): SyncError =>
    new SyncError(
      response.status === 401 || response.status === 403 ? 'auth' : 'http',
      `${base}/${id}`,
      `The blob endpoint refused to ${what} ${id}: HTTP ${response.status}`,
      { status: response.status },
    )
  return {
    async put(id, blob) {
      const response = await call(id, { method: 'PUT', body: blob, headers: { 'Content-Type': blob.type || 'application/octet-stream' } })
      await response.body?.cancel()
      if (!response.ok) throw refused(response, id, 'store')
    },
    async get(id) {
      const response = await call(id, { method: 'GET' })
      if (response.status === 404) {
        await response.body?.cancel()
        return undefined
      }
      if (!response.ok) throw refused(response, id, 'give')
      return response.blob()
    },
  }
}

const attachmentId = /^sha256-[0-9a-f]{64}$/

/** The attachment references in some entries (media sources of type `attachment`), with their media types. */
export function attachmentsIn(entries: readonly (Entry | WireEntry)[]): Map<string, string> {
  const found = new Map<string, string>()
  const stack: unknown[] = entries.map((entry) => entry.payload)
  for (let visited = 0; stack.length > 0 && visited < 100_000; visited++) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null) continue
    const source = value as { type?: unknown; id?: unknown; mediaType?: unknown }
    if (source.type === 'attachment' && typeof source.id === 'string' && attachmentId.test(source.id) && typeof source.mediaType === 'string') {
      found.set(source.id, source.mediaType)
    }
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) stack.push(child)
  }
  return found
}

/** What the engine needs to move attachments: the local store and the app's endpoint. */
export interface AttachmentSync {
  readonly store: AttachmentStore
  readonly blobs: BlobEndpoint
}

/** Uploads the bytes the entries use that this device has and has not uploaded yet. */
export async function uploadAttachments(sync: AttachmentSync, entries: readonly Entry[], uploaded: Set<string>): Promise<void> {
  for (const id of attachmentsIn(entries).keys()) {
    if (uploaded.has(id)) continue
    const blob = await sync.store.get(id)
    // Bytes this device never had (an entry that came from elsewhere) are not its to upload.
    if (blob !== undefined) await sync.blobs.put(id, blob)
    uploaded.add(id)
  }
}

/**
 * Downloads the bytes placed entries use that this device lacks, checks each against its hash and
 * keeps it for the thread. Returns the ids the endpoint does not have (yet): read again later.
 */
export async function downloadAttachments(sync: AttachmentSync, threadId: string, entries: readonly WireEntry[]): Promise<string[]> {
  const missing: string[] = []
  for (const [id, mediaType] of attachmentsIn(entries)) {
    if ((await sync.store.info(id)) !== undefined) continue
    const blob = await sync.blobs.get(id)
    if (blob === undefined || blob.size > maxAttachmentBytes) {
      missing.push(id)
      continue
    }
    const bytes = await blob.arrayBuffer()
    // Content-addressed: bytes that do not hash to their name are someone else's, never kept.
    if ((await attachmentIdOf(bytes)) !== id) {
      missing.push(id)
      continue
    }
    await sync.store.put(threadId, new Blob([bytes], { type: mediaType }), { mediaType })
  }
  return missing
}
