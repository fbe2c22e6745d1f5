// Runs the Durable Streams conformance suite (./suite.ts) in a child vitest against a server
// that is already up, and returns one result per test of the suite, read from vitest's JSON report.
// A child process, because the suite registers its tests with vitest's own `test`: run in the
// calling test file, a failing conformance test would fail that file with no way to tell an
// expected failure from a new one.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SyncServerError } from '../options.ts'

export interface ConformanceResult {
  /** Describe blocks and test title, space-separated (vitest's `fullName`). */
  readonly name: string
  readonly status: 'passed' | 'failed' | 'skipped'
  /** The first failure message, for a failed test. */
  readonly failure: string | undefined
}

interface JsonReport {
  readonly testResults: readonly {
    readonly message?: string
    readonly assertionResults: readonly { readonly fullName: string; readonly status: string; readonly failureMessages?: readonly string[] }[]
  }[]
}

const vitestEntry = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')
const configPath = fileURLToPath(new URL('./vitest.config.ts', import.meta.url))

function statusOf(status: string): ConformanceResult['status'] {
  if (status === 'passed' || status === 'failed') return status
  return 'skipped' // vitest's pending / skipped / todo
}

/** Spawns the child vitest and resolves once it has exited (it exits non-zero when a test fails). */
function runChild(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestEntry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-8_000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new SyncServerError('timeout', `the conformance suite did not finish within ${timeoutMs} ms; output:\n${output}`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(output)
    })
  })
}

/** Runs the whole suite against `baseUrl`; `longPollTimeoutMs` must be the server's long-poll timeout. */
export async function runConformanceSuite(options: { baseUrl: string; longPollTimeoutMs: number; timeoutMs: number }): Promise<ConformanceResult[]> {
  const reportDir = await mkdtemp(join(tmpdir(), 'threadlens-conformance-'))
  try {
    const reportPath = join(reportDir, 'report.json')
    // The child is a vitest of its own: none of the parent worker's VITEST_* variables.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))
    const output = await runChild(
      ['run', '--config', configPath, '--reporter=json', `--outputFile=${reportPath}`],
      { ...env, SYNC_CONFORMANCE_URL: options.baseUrl, SYNC_CONFORMANCE_LONG_POLL_MS: String(options.longPollTimeoutMs) },
      options.timeoutMs,
    )
    const text = await readFile(reportPath, 'utf8').catch(() => {
      throw new SyncServerError('exited', `the conformance suite wrote no report; output:\n${output}`)
    })
    const report = JSON.parse(text) as JsonReport
    const fileErrors = report.testResults.map((file) => file.message ?? '').filter((message) => message !== '')
    if (fileErrors.length > 0) throw new SyncServerError('exited', `the conformance suite could not run: ${fileErrors.join('\n')}`)
    return report.testResults.flatMap((file) =>
      file.assertionResults.map((test) => ({ name: test.fullName, status: statusOf(test.status), failure: test.failureMessages?.[0] })),
    )
  } finally {
    await rm(reportDir, { recursive: true, force: true })
  }
}
