import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../../../e2e/chromium.ts'
import type { LoopBenchResult, Timing } from '../src/testing/harness/bench-page'
import type { AgentHarness } from '../src/testing/harness/harness-page'
import { benchInHarness, writeBenchResults } from '@threadlens/testing/node'

// `npm run bench` (agent step): the session loop's own cost per model call in headless Chromium,
// through the agent harness page; model streaming, tool execution and summarizing are timed and
// taken out. Prints tables and writes bench-results/agent.json. Not a test: nothing fails on a slow figure.

const sizes = (process.env['THREADLENS_AGENT_BENCH_SIZES'] ?? '1000,10000').split(',').map(Number)
const requests = Number(process.env['THREADLENS_AGENT_BENCH_REQUESTS'] ?? 40)

function table(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number))).join('  ')
  const rule = widths.map((width) => '─'.repeat(width)).join('  ')
  return ['', title, rule, line(header), rule, ...rows.map(line), rule].join('\n')
}

const ms = (value: number) => `${value.toFixed(2)} ms`
const split = (value: Timing) => `${ms(value.p50)} / ${ms(value.p95)}`

async function main(): Promise<void> {
  const launch = () => chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
  const result: LoopBenchResult = await benchInHarness('agent', launch, (page) =>
    page.evaluate((options) => (window as unknown as { agentHarness: AgentHarness }).agentHarness.bench(options), { sizes, requests }),
  )

  console.log(
    `agent loop bench in ${result.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}${result.crossOriginIsolated ? '' : ' (not cross-origin isolated: timer ticks are 100 µs)'}`,
  )
  console.log(
    table(
      'loop overhead per model call, model streaming + tool execution + summarizing excluded (goal < 5 ms); p50 / p95',
      ['policy', 'thread', 'calls', 'overhead', 'projection', 'appendMany', 'rest', 'compactions'],
      result.rows.map((row) => [
        row.policy,
        row.threadEntries.toLocaleString('en-US'),
        String(row.modelCalls),
        split(row.overhead),
        split(row.projection),
        split(row.writes),
        split(row.rest),
        String(row.compactions),
      ]),
    ),
  )
  console.log(
    table(
      "where it goes: each appendMany in the loop vs alone (no subscriber), project() and the call record's messages hash alone on the final thread; p50 / p95",
      [
        'policy',
        'thread',
        'appendMany in loop',
        'per call',
        'appendMany alone',
        'project() alone',
        'messages',
        'tokens',
        'messages hash',
        'scripted model (excl.)',
      ],
      result.rows.map((row) => [
        row.policy,
        row.threadEntries.toLocaleString('en-US'),
        split(row.appendLatency),
        `×${row.appendsPerCall.toFixed(1)}`,
        split(row.appendAlone),
        split(row.projectAlone),
        String(row.projectedMessages),
        row.projectedTokens.toLocaleString('en-US'),
        split(row.hashAlone),
        split(row.model),
      ]),
    ),
  )
  console.log(
    "\npolicy: default = definePolicy() (8k window, a session's default), long = presets.longContext() (128k). Each request is two model" +
      '\ncalls (a tool call, then the answer) on a thread seeded with N entries of ~300 B; o200k counts stored at append.' +
      '\nprojection = from the loop reading memory (just before project) to asking the model for its first chunk;' +
      '\nappendMany = inside threads.appendMany (token counting + one IndexedDB transaction); rest = lock, policy read, mirror ingest, call records, events.',
  )

  writeBenchResults('agent', result)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
