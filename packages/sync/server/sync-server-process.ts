// The sync server as a child process (the CLI in ./main.ts), for fault tests: it can be killed
// with SIGKILL mid-write and started again on the same port and data dir.
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { checkPort, readyLinePrefix, SyncServerError } from './options.ts'

export interface SpawnSyncServerOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one on the first start, and restarts reuse it. */
  readonly port: number
  /** Where the server keeps its streams; restarts reuse it. */
  readonly dataDir: string
  /** Bound on each start (process up and port answering). Default 20 000 ms. */
  readonly startTimeoutMs?: number
}

export interface SpawnedSyncServer {
  /** `http://127.0.0.1:<port>`; the same after a restart. */
  readonly baseUrl: string
  /** The running child's pid; undefined while it is down. */
  readonly pid: number | undefined
  /** Sends `signal` (default SIGKILL) and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** Starts the server again on the same port and data dir (stopping it first if it is up); resolves once the port answers. */
  restart(): Promise<void>
  /** SIGTERM, then SIGKILL if it has not exited within the bound. Safe to call when it is down. */
  stop(): Promise<void>
}

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url))
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const exitTimeoutMs = 10_000

function isRunning(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null
}

/** Resolves once `child` has exited; rejects with a timeout error after `timeoutMs`. */
function exited(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (!isRunning(child)) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new SyncServerError('timeout', `sync server process ${child.pid} did not exit within ${timeoutMs} ms`))
    }, timeoutMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Polls until an HTTP request to `baseUrl` gets any response. */
async function untilAnswering(baseUrl: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      await fetch(`${baseUrl}/`, { method: 'HEAD', signal: AbortSignal.timeout(1_000) })
      return
    } catch (error) {
      if (Date.now() > deadline) throw new SyncServerError('timeout', `sync server at ${baseUrl} did not answer in time`, { cause: error })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

interface Launched {
  readonly child: ChildProcess
  readonly baseUrl: string
}

/** Starts main.ts in a child and resolves with its base URL once it prints its ready line. */
function launch(port: number, dataDir: string, timeoutMs: number): Promise<Launched> {
  const child = spawn(process.execPath, ['--import', tsxLoader, mainPath], {
    env: { ...process.env, PORT: String(port), SYNC_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4_000)
  }
  child.stderr?.on('data', keep)
  return new Promise((resolve, reject) => {
    const fail = (error: SyncServerError): void => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const timer = setTimeout(() => {
      fail(new SyncServerError('timeout', `sync server process did not start within ${timeoutMs} ms on port ${port}; output:\n${output}`))
    }, timeoutMs)
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      fail(new SyncServerError('exited', `sync server process exited (${signal ?? `code ${code}`}) before it was ready; output:\n${output}`))
    }
    child.once('exit', onEarlyExit)
    let ready = false
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk)
      if (ready) return // keep draining the pipe; the server logs on
      // Only a whole line: a chunk can end in the middle of the URL.
      const baseUrl = output
        .split('\n')
        .slice(0, -1)
        .find((line) => line.startsWith(readyLinePrefix))
        ?.slice(readyLinePrefix.length)
        .trim()
      if (baseUrl === undefined) return
      ready = true
      clearTimeout(timer)
      child.off('exit', onEarlyExit)
      resolve({ child, baseUrl })
    })
  })
}

/** Runs the sync server in a child process on 127.0.0.1; resolves once it answers HTTP. */
export async function spawnSyncServer(options: SpawnSyncServerOptions): Promise<SpawnedSyncServer> {
  const { dataDir, startTimeoutMs = 20_000 } = options
  if (typeof dataDir !== 'string' || dataDir.trim() === '') {
    throw new SyncServerError('invalid-option', `dataDir must be a non-empty path, got ${JSON.stringify(dataDir)}`)
  }
  let port = checkPort(options.port, 'port')
  let child: ChildProcess | undefined

  const start = async (): Promise<string> => {
    const launched = await launch(port, dataDir, startTimeoutMs)
    child = launched.child
    await untilAnswering(launched.baseUrl, Date.now() + startTimeoutMs)
    return launched.baseUrl
  }
  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    if (!isRunning(child)) return
    child.kill(signal)
    await exited(child, exitTimeoutMs)
  }
  const stop = async (): Promise<void> => {
    if (!isRunning(child)) return
    const running = child
    running.kill('SIGTERM')
    try {
      await exited(running, exitTimeoutMs)
    } catch {
      running.kill('SIGKILL')
      await exited(running, exitTimeoutMs)
    }
  }

  const baseUrl = await start()
  port = Number(new URL(baseUrl).port)
  return {
    baseUrl,
    get pid() {
      return isRunning(child) ? child.pid : undefined
    },
    kill,
    restart: async () => {
      await stop()
      await start()
    },
    stop,
  }
}
