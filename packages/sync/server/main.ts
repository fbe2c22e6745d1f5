// `npm run sync-server`: a file-backed Durable Streams server on 127.0.0.1 for local development.
// Env: PORT (default 4437), SYNC_DATA_DIR (default .threadlens-sync/ at the repo root; a relative
// path resolves against the working directory). Prints `threadlens sync server: <base URL>` once it
// accepts connections; stops cleanly on SIGINT / SIGTERM, and when the parent that spawned it with
// an IPC channel goes away (spawnSyncServer).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkPort, defaultSyncServerPort, readyLinePrefix, SyncServerError } from './options.ts'
import { startSyncServer, type SyncServer } from './sync-server.ts'

const stopTimeoutMs = 5_000

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return defaultSyncServerPort
  if (!/^\d+$/.test(value)) throw new SyncServerError('invalid-option', `PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`)
  return checkPort(Number(value), 'PORT')
}

function dataDirFromEnv(value: string | undefined): string {
  if (value !== undefined && value.trim() !== '') return resolve(value)
  return fileURLToPath(new URL('../../../.threadlens-sync/', import.meta.url))
}

function stopOnSignals(server: SyncServer): void {
  let stopping = false
  const stop = (reason: string): void => {
    if (stopping) {
      process.exit(1) // a second signal: the user does not want to wait
    }
    stopping = true
    console.log(`threadlens sync server: stopping (${reason})`)
    const timer = setTimeout(() => {
      console.error(`threadlens sync server: did not stop within ${stopTimeoutMs} ms, exiting`)
      process.exit(1)
    }, stopTimeoutMs)
    server.stop().then(
      () => {
        clearTimeout(timer)
        process.exit(0)
      },
      (error: unknown) => {
        console.error('threadlens sync server: stop failed:', error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  // Spawned with an IPC channel: the parent's exit closes it, and this server must not outlive it.
  if (process.send !== undefined) process.on('disconnect', () => stop('parent exited'))
}

async function main(): Promise<void> {
  const port = portFromEnv(process.env['PORT'])
  const dataDir = dataDirFromEnv(process.env['SYNC_DATA_DIR'])
  const server = await startSyncServer({ port, dataDir })
  stopOnSignals(server)
  console.log(`${readyLinePrefix}${server.baseUrl}`)
  console.log(`  streams stored in ${dataDir}`)
}

main().catch((error: unknown) => {
  console.error(error instanceof SyncServerError ? `threadlens sync server: ${error.message}` : error)
  process.exit(1)
})
