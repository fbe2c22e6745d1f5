import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { formatMs } from './measure'

export interface Machine {
  readonly cpu: string
  readonly cores: number
  readonly memoryGigabytes: number
  readonly node: string
  readonly platform: string
  readonly date: string
}

export function machine(): Machine {
  const list = cpus()
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGigabytes: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    date: new Date().toISOString(),
  }
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number))).join('  ')
  const rule = widths.map((width) => '─'.repeat(width)).join('  ')
  return [``, title, rule, line(header), rule, ...rows.map(line), rule].join('\n')
}

/**
 * Prints how long the bench has run since `started` and writes `figures`, with that time as
 * `benchMs`, to bench-results/`file` at the repository root.
 */
export function writeBenchResults(file: string, started: number, figures: Record<string, unknown>): void {
  const benchMs = performance.now() - started
  console.log(`\nbench time: ${formatMs(benchMs)}`)
  const directory = fileURLToPath(new URL('../../../bench-results/', import.meta.url))
  mkdirSync(directory, { recursive: true })
  const outputPath = `${directory}${file}`
  writeFileSync(outputPath, `${JSON.stringify({ ...figures, benchMs }, null, 2)}\n`)
  console.log(`figures written to ${outputPath}`)
}
