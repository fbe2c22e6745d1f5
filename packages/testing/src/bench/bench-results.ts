// Node-only: the benches' result files.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'

/** Writes `bench-results/<name>.json` at the repository root: the machine the bench ran on, then `result`'s fields. */
export function writeBenchResults(name: string, result: object): void {
  const outputDirectory = fileURLToPath(new URL('../../../../bench-results/', import.meta.url))
  mkdirSync(outputDirectory, { recursive: true })
  const machine = {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGigabytes: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    date: new Date().toISOString(),
  }
  writeFileSync(`${outputDirectory}${name}.json`, `${JSON.stringify({ machine, ...result }, null, 2)}\n`)
  console.log(`\nwrote bench-results/${name}.json`)
}
