import { SyncError } from './errors'

/**
 * The four Durable Streams requests sync makes (create, append, read, close), over `fetch`. Each is
 * one request with its own timeout: retrying is the engine's choice, never this module's, so a
 * body that was never acknowledged is resent by the outbox byte for byte.
 */

/** Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`; called before each one. */
export type SyncHeaders = () => Record<string, string> | Promise<Record<string, string>>

export interface StreamHttp {
  /** Creates the JSON stream at `url`; an existing JSON stream is fine. */
  create(url: string): Promise<void>
  /** Appends `body` (a JSON array of messages, as text) as an idempotent producer. */
  append(url: string, body: string, producer: ProducerPosition): Promise<AppendOutcome>
  /** Reads messages from `offset` (`-1`: the start); `live` waits for new ones up to the server's timeout. */
  read(url: string, offset: string, options: { readonly live: boolean; readonly signal?: AbortSignal }): Promise<ReadOutcome>
  /** Closes the stream (end of file): later appends are refused. */
  close(url: string): Promise<void>
}

/** A producer's place: the server drops a repeated `(id, epoch, seq)` and refuses a gap. */
export interface ProducerPosition {
  readonly id: string
  readonly epoch: number
  readonly seq: number
}

export type AppendOutcome =
  /** Stored now, or earlier (a repeat of an acknowledged append). */
  | { readonly kind: 'stored' }
  /** The stream has no such path (deleted, or never created). */
  | { readonly kind: 'missing' }
  /** The stream is closed: its thread was deleted elsewhere. */
  | { readonly kind: 'closed' }
  /** Another writer took this producer id with a newer epoch. */
  | { readonly kind: 'stale-epoch'; readonly currentEpoch: number }
  /** The server expects another seq (it lost producer state): start a new epoch. */
  | { readonly kind: 'sequence-gap'; readonly expectedSeq: number }

export type ReadOutcome =
  | { readonly kind: 'missing' }
  | {
      readonly kind: 'read'
      /** The messages, as parsed JSON values (not yet checked). */
      readonly messages: readonly unknown[]
      /** Where the next read starts. */
      readonly nextOffset: string
      readonly upToDate: boolean
      readonly closed: boolean
    }

export interface StreamHttpOptions {
  readonly headers?: SyncHeaders | undefined
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch | undefined
  /** Per request, live reads excepted (they get the server's long-poll time plus this). Default: 15 s. */
  readonly timeoutMs?: number
}

const jsonType = 'application/json'

function header(response: Response, name: string): string | null {
  return response.headers.get(name)
}

function integerHeader(response: Response, name: string): number {
  const value = Number(header(response, name))
  return Number.isSafeInteger(value) && value >= 0 ? value : 0
}

// long: the four requests and the three helpers they share (request, fail, checkJson) over one set of options
export function createStreamHttp(options: StreamHttpOptions = {}): StreamHttp {
  const timeoutMs = options.timeoutMs ?? 15_000

  async function request(url: string, init: RequestInit & { readonly live?: boolean }): Promise<Response> {
    const doFetch = options.fetch ?? globalThis.fetch
    const extra = options.headers === undefined ? {} : await options.headers()
    const timeout = AbortSignal.timeout(init.live === true ? 60_000 + timeoutMs : timeoutMs)
    const signal = init.signal == null ? timeout : AbortSignal.any([init.signal, timeout])
    try {
      return await doFetch(url, {
        ...init,
        headers: { ...extra, ...(init.headers as Record<string, string> | undefined) },
        signal,
        cache: 'no-store',
      })
    } catch (error) {
      if (init.signal?.aborted === true) throw init.signal.reason
      throw new SyncError('network', url, `The sync server did not answer ${init.method ?? 'GET'} ${url}: ${String(error)}`, { cause: error })
    }
  }

  async function fail(url: string, response: Response, what: string, body?: string): Promise<never> {
    const text = (body ?? (await response.text().catch(() => ''))).slice(0, 300)
    const code = response.status === 401 || response.status === 403 ? 'auth' : 'http'
    throw new SyncError(code, url, `The sync server refused to ${what} ${url}: HTTP ${response.status}${text === '' ? '' : ` (${text})`}`, {
      status: response.status,
    })
  }

  function checkJson(url: string, response: Response): void {
    const type = header(response, 'content-type')
    if (type !== null && !type.toLowerCase().startsWith(jsonType)) {
      throw new SyncError('content-type', url, `The stream ${url} is not a JSON stream (content type ${type}): it was not made by threadlens sync.`, {
        status: response.status,
      })
    }
  }

  return {
    async create(url) {
      const response = await request(url, { method: 'PUT', headers: { 'Content-Type': jsonType } })
      if (response.ok) return
      if (response.status === 409) {
        throw new SyncError('content-type', url, `The stream ${url} exists with another configuration (not a JSON stream made by threadlens sync).`, {
          status: 409,
        })
      }
      await fail(url, response, 'create')
    },

    async append(url, body, producer) {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: {
          'Content-Type': jsonType,
          'Producer-Id': producer.id,
          'Producer-Epoch': String(producer.epoch),
          'Producer-Seq': String(producer.seq),
        },
      })
      if (response.ok) {
        await response.body?.cancel()
        return { kind: 'stored' }
      }
      const text = await response.text().catch(() => '')
      if (response.status === 404 || response.status === 410) return { kind: 'missing' }
      if (response.status === 409 && header(response, 'Stream-Closed') === 'true') return { kind: 'closed' }
      if (response.status === 409 && header(response, 'Producer-Expected-Seq') !== null) {
        return { kind: 'sequence-gap', expectedSeq: integerHeader(response, 'Producer-Expected-Seq') }
      }
      if (response.status === 409 && /content-type/i.test(text)) {
        throw new SyncError('content-type', url, `The stream ${url} is not a JSON stream: it was not made by threadlens sync.`, { status: 409 })
      }
      if (response.status === 403 && header(response, 'Producer-Epoch') !== null) {
        return { kind: 'stale-epoch', currentEpoch: integerHeader(response, 'Producer-Epoch') }
      }
      return fail(url, response, 'append to', text)
    },

    async read(url, offset, readOptions) {
      const query = `offset=${encodeURIComponent(offset)}${readOptions.live ? '&live=long-poll' : ''}`
      const response = await request(`${url}?${query}`, { method: 'GET', live: readOptions.live, signal: readOptions.signal ?? null })
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel()
        return { kind: 'missing' }
      }
      if (!response.ok) return fail(url, response, 'read')
      const nextOffset = header(response, 'Stream-Next-Offset')
      if (nextOffset === null || nextOffset === '') {
        throw new SyncError('malformed', url, `The sync server's answer to a read of ${url} has no Stream-Next-Offset header.`, {
          status: response.status,
        })
      }
      const upToDate = header(response, 'Stream-Up-To-Date') === 'true'
      const closed = header(response, 'Stream-Closed') === 'true'
      if (response.status === 204) return { kind: 'read', messages: [], nextOffset, upToDate, closed }
      checkJson(url, response)
      const text = await response.text()
      let messages: unknown
      try {
        messages = text === '' ? [] : JSON.parse(text)
      } catch (error) {
        throw new SyncError('malformed', url, `The sync server's answer to a read of ${url} is not JSON.`, { cause: error, status: response.status })
      }
      if (!Array.isArray(messages)) {
        throw new SyncError('malformed', url, `The sync server's answer to a read of ${url} is not a JSON array of messages.`, {
          status: response.status,
        })
      }
      return { kind: 'read', messages, nextOffset, upToDate, closed }
    },

    async close(url) {
      const response = await request(url, { method: 'POST', headers: { 'Stream-Closed': 'true' } })
      await response.body?.cancel()
      if (response.ok || response.status === 404 || response.status === 410) return
      await fail(url, response, 'close')
    },
  }
}
