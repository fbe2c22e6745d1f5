import { type EntryMeta } from '@threadlens/core'
import { callAttemptReader, tokenCalibrationReader } from '@threadlens/core/internal'
import { addCalibrationSample, calibrationSampleOf, type CallAttempt, type TokenCalibration } from '@threadlens/core/calls'
import { liveRead } from './live-read'
import type { ThreadlensDB } from './threadlens-db'
import { byStart, maxAttemptsPerThread, type CallLogStore } from '../../calls/call-log-store'
import { callLogOnBackend, type CallLogBackend } from '../../calls/call-log-on-backend'
import { readIfValid } from '../../parse-options'

export interface CallLogOptions {
  /** Clock for calibrations' `updatedAt`. Default: `Date.now`. */
  readonly now?: () => number
}

const threadRange = (db: ThreadlensDB, threadId: string): [[string, unknown], [string, unknown]] => [
  [threadId, db.dexieRuntime.minKey],
  [threadId, db.dexieRuntime.maxKey],
]

/** Rows another version (or a hand edit) wrote wrongly are skipped, not shown half-read. */
function readAttempts(rows: readonly unknown[]): CallAttempt[] {
  const attempts: CallAttempt[] = []
  for (const row of rows) {
    const attempt = readIfValid(callAttemptReader, row)
    if (attempt !== undefined) attempts.push(attempt)
  }
  return attempts.sort(byStart)
}

function readCalibration(row: unknown): TokenCalibration | undefined {
  return readIfValid(tokenCalibrationReader, row)
}

type SampleOf = NonNullable<ReturnType<typeof calibrationSampleOf>>

/** The calibration samples the call records among `metas` hold (an append's replies with reported usage). */
export function calibrationSamplesOf(metas: readonly (EntryMeta | undefined)[]): SampleOf[] {
  const samples: SampleOf[] = []
  for (const meta of metas) {
    const found = meta?.call === undefined ? undefined : calibrationSampleOf(meta.call)
    if (found !== undefined) samples.push(found)
  }
  return samples
}

/**
 * Reads the calibrations `samples` will update, inside the caller's transaction (which must include
 * `calibrations`), and returns the rows to put: an append that writes a reply also calibrates its model.
 */
export async function calibrationUpdates(db: ThreadlensDB, samples: readonly SampleOf[], now: number): Promise<TokenCalibration[]> {
  if (samples.length === 0) return []
  const keys = [...new Set(samples.map((each) => `${each.model}\u0000${each.counter}`))]
  const rows = await Promise.all(keys.map((key) => db.calibrations.get(key.split('\u0000') as [string, string])))
  const current = new Map(keys.map((key, index) => [key, readCalibration(rows[index])]))
  for (const each of samples) {
    const key = `${each.model}\u0000${each.counter}`
    current.set(key, addCalibrationSample(current.get(key), each.sample, { model: each.model, counter: each.counter, now }))
  }
  return [...current.values()].filter((each): each is TokenCalibration => each !== undefined)
}

/**
 * The call log in IndexedDB: failed, retried and aborted attempts beside their thread (deleted with
 * it, not exported with it) and one token calibration per model and counter, shared by all tabs.
 */
export function indexedDbCallLogBackend(db: ThreadlensDB): CallLogBackend {
  async function attempts(threadId: string): Promise<readonly CallAttempt[]> {
    const [lower, upper] = threadRange(db, threadId)
    return readAttempts(await db.attempts.where('[threadId+id]').between(lower, upper, true, true).toArray())
  }
  const allCalibrations = async (): Promise<readonly TokenCalibration[]> =>
    (await db.calibrations.toArray()).flatMap((row) => readCalibration(row) ?? []).sort((a, b) => b.updatedAt - a.updatedAt)

  return {
    putAttempt: (attempt, trim) =>
      db.run('recordAttempt', () =>
        db.transaction('rw', [db.attempts], async () => {
          await db.attempts.put(attempt)
          const [lower, upper] = threadRange(db, attempt.threadId)
          const count = await db.attempts.where('[threadId+id]').between(lower, upper, true, true).count()
          if (count <= maxAttemptsPerThread) return
          const old = trim(await attempts(attempt.threadId))
          await db.attempts.bulkDelete(old.map((row): [string, string] => [row.threadId, row.id]))
        }),
      ),

    attempts: (threadId) => db.run('attempts', () => attempts(threadId)),

    calibration: (model, counter) =>
      db.run('calibration', async () => {
        const calibration = readCalibration(await db.calibrations.get([model, counter]))
        if (calibration !== undefined) db.recentCalibrations.set(`${model}\u0000${counter}`, calibration)
        return calibration
      }),

    recentCalibration: (model, counter) => db.recentCalibrations.get(`${model}\u0000${counter}`),

    calibrations: () => db.run('calibrations', allCalibrations),

    // Read and write in one transaction: two tabs adding at once both count.
    changeCalibration: (model, counter, change) =>
      db.run('addCalibrationSample', () =>
        db.transaction('rw', [db.calibrations], async () => {
          const next = change(readCalibration(await db.calibrations.get([model, counter])))
          await db.calibrations.put(next)
          db.recentCalibrations.set(`${model}\u0000${counter}`, next)
          return next
        }),
      ),

    subscribeAttempts: (threadId, listener) =>
      liveRead(
        db,
        'subscribeAttempts',
        () => attempts(threadId),
        (list) => listener({ type: 'attempts-update', threadId, attempts: list }),
        (error) => listener({ type: 'storage-fail', error }),
      ),

    subscribeCalibrations: (listener) =>
      liveRead(
        db,
        'subscribeCalibrations',
        allCalibrations,
        (calibrations) => listener({ type: 'calibrations-update', calibrations }),
        (error) => listener({ type: 'storage-fail', error }),
      ),
  }
}

/** The call log in IndexedDB (see `indexedDbCallLogBackend`). */
export function createCallLog(db: ThreadlensDB, options: CallLogOptions = {}): CallLogStore {
  return callLogOnBackend(indexedDbCallLogBackend(db), options)
}
