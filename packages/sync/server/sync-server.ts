// A Durable Streams server for development and tests: the reference Node server
// (@durable-streams/server), bound to the loopback interface, file-backed when given a data dir.
// `spawnSyncServer` (./sync-server-process.ts) runs the same server as a child process for fault tests.
import { DurableStreamTestServer, FileBackedStreamStore } from '@durable-streams/server'

import { allowExtraRequestHeaders } from './cors.ts'
import { checkPort, defaultSyncServerPort, SyncServerError } from './options.ts'

export { checkPort, defaultSyncServerPort, readyLinePrefix, SyncServerError, type SyncServerErrorCode } from './options.ts'
export { spawnSyncServer, type SpawnedSyncServer, type SpawnSyncServerOptions } from './sync-server-process.ts'

export interface SyncServerOptions {
  /** TCP port; 0 picks a free one. Default 4437. */
  readonly port?: number
  /** A loopback IPv4 address (127.0.0.0/8). Default 127.0.0.1. */
  readonly host?: string
  /** Store streams under this directory (created if missing); in memory when omitted. */
  readonly dataDir?: string
  /** How long a `live=long-poll` read waits for new data before answering. Default 30 000. */
  readonly longPollTimeoutMs?: number
}

export interface SyncServer {
  /** `http://<host>:<port>`, no trailing slash. */
  readonly baseUrl: string
  /** Stops listening, ends open reads and closes the file store. Safe to call twice. */
  stop(): Promise<void>
}

const loopbackIPv4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

function checkHost(host: unknown): string {
  const match = typeof host === 'string' ? loopbackIPv4.exec(host) : null
  if (match === null || match.slice(1).some((part) => Number(part) > 255)) {
    throw new SyncServerError('invalid-option', `host must be a loopback IPv4 address (127.x.x.x), got ${JSON.stringify(host)}`)
  }
  return host as string
}

function checkOptions(options: SyncServerOptions): Required<Omit<SyncServerOptions, 'dataDir'>> & { dataDir: string | undefined } {
  if (typeof options !== 'object' || options === null) throw new SyncServerError('invalid-option', 'options must be an object')
  const { dataDir, longPollTimeoutMs = 30_000 } = options
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir.trim() === '')) {
    throw new SyncServerError('invalid-option', `dataDir must be a non-empty path, got ${JSON.stringify(dataDir)}`)
  }
  if (!Number.isInteger(longPollTimeoutMs) || longPollTimeoutMs <= 0) {
    throw new SyncServerError('invalid-option', `longPollTimeoutMs must be a positive integer, got ${JSON.stringify(longPollTimeoutMs)}`)
  }
  return {
    port: checkPort(options.port ?? defaultSyncServerPort, 'port'),
    host: checkHost(options.host ?? '127.0.0.1'),
    dataDir,
    longPollTimeoutMs,
  }
}

/** Starts a Durable Streams server on the loopback interface; resolves once it accepts connections. */
export async function startSyncServer(options: SyncServerOptions = {}): Promise<SyncServer> {
  const { port, host, dataDir, longPollTimeoutMs } = checkOptions(options)
  let server: DurableStreamTestServer | undefined
  let baseUrl: string
  try {
    server = new DurableStreamTestServer({ port, host, longPollTimeout: longPollTimeoutMs, ...(dataDir === undefined ? {} : { dataDir }) })
    baseUrl = await server.start()
  } catch (error) {
    // The file store opens in the constructor: release it, or the data dir stays locked by this process.
    if (server?.store instanceof FileBackedStreamStore) await server.store.close().catch(() => undefined)
    const where = dataDir === undefined ? 'in memory' : `with data in ${dataDir}`
    throw new SyncServerError('start-failed', `sync server could not start on ${host}:${port} ${where}: ${String(error)}`, { cause: error })
  }
  const started = server
  try {
    allowExtraRequestHeaders(started)
  } catch (error) {
    await started.stop()
    throw error
  }
  let stopping: Promise<void> | undefined
  return {
    baseUrl,
    stop: () => (stopping ??= started.stop()),
  }
}
