import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../../../e2e/chromium.ts'
import type { StoreBenchResult, Timing } from '../src/testing/harness/bench-page'
import type { StoreHarness } from '../src/testing/harness/harness-page'
import { benchInHarness, writeBenchResults } from '@threadlens/testing/node'

// `npm run bench` (store step): runs the store bench in headless Chromium through the harness page,
// prints tables and writes bench-results/store.json. Not a test: nothing here fails on a slow figure.

const sizes = (process.env['THREADLENS_STORE_BENCH_SIZES'] ?? '10000,100000').split(',').map(Number)

function table(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number))).join('  ')
  const rule = widths.map((width) => '─'.repeat(width)).join('  ')
  return ['', title, rule, line(header), rule, ...rows.map(line), rule].join('\n')
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`
const perSecond = (value: number | undefined) => (value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')}/s`)
const timingCells = (value: Timing) => [ms(value.p50), ms(value.p95), ms(value.min), String(value.runs)]

async function main(): Promise<void> {
  const launch = () => chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
  const result: StoreBenchResult = await benchInHarness('store', launch, (page) =>
    page.evaluate((benchSizes) => (window as unknown as { storeHarness: StoreHarness }).storeHarness.bench({ sizes: benchSizes }), sizes),
  )

  console.log(`store bench in ${result.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}`)
  console.log(
    table(
      'append latency: one entry, one transaction (o200k counts and recall terms stored)',
      ['', 'p50', 'p95', 'min', 'runs'],
      [['append', ...timingCells(result.appendLatency)]],
    ),
  )
  console.log(
    table(
      'appendMany (recall terms kept) vs raw IndexedDB put, one transaction, same entries (~300 B, 20% tool calls/results; median of the rounds)',
      ['entries', 'rounds', 'raw put', 'appendMany', 'ratio (goal ≥ 0.70)', 'appendMany + o200k counts'],
      result.throughput.map((row) => [
        row.entries.toLocaleString('en-US'),
        String(row.rounds),
        perSecond(row.rawPerSecond),
        perSecond(row.storePerSecond),
        row.ratio.toFixed(2),
        perSecond(row.storeCountingPerSecond),
      ]),
    ),
  )
  console.log(
    table(
      'open a thread + first projection (fresh connection, windowed load, o200k counter loaded; goal < 100 ms)',
      ['policy', 'thread', 'window', 'p50', 'p95', 'min', 'runs', 'messages', 'tokens'],
      result.open.map((row) => [
        row.label,
        row.threadEntries.toLocaleString('en-US'),
        row.windowEntries.toLocaleString('en-US'),
        ...timingCells(row.timing),
        String(row.projectedMessages),
        String(row.projectedTokens),
      ]),
    ),
  )
  console.log(
    table(
      'recall index on opening a thread: restored from the terms stored beside the entries vs built from all of them; and kept up to date per append',
      ['thread', 'restore p50', 'restore p95', 'build p50', 'build p95', 'runs', 'update per append p50 / p95'],
      result.recall.map((row) => [
        `${row.threadEntries.toLocaleString('en-US')} entries`,
        ms(row.restore.p50),
        ms(row.restore.p95),
        ms(row.build.p50),
        ms(row.build.p95),
        String(row.restore.runs),
        `${ms(row.perAppend.p50)} / ${ms(row.perAppend.p95)}`,
      ]),
    ),
  )
  console.log(
    `for comparison: loading all ${result.fullLoad.threadEntries.toLocaleString('en-US')} entries (no window) took ${ms(result.fullLoad.milliseconds)}`,
  )

  writeBenchResults('store', result)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
