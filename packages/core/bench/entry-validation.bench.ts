import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type EntryInput } from '../src/index'
import { parseEntryInput, utf8Length } from '../src/internal/index'
import { entryLimits } from '../src/index'
import { nested } from '../src/testing/hostile-values'
import { formatMs, repeat, type Timing } from './measure'
import { machine, table } from './report'

// `pnpm bench`: what the one definition of a valid entry costs on append (an iterative walk that
// copies the value, the zod schema, the size check), against JSON.stringify of the same input as a
// yardstick, and how fast hostile input is refused. Prints a table and writes
// bench-results/entry-validation.json. Not a test: nothing here fails on a figure.

const options = { warmup: 3, minRuns: 5, maxRuns: 200, maxTotalMs: 2_000 }

function typicalEntries(count: number): EntryInput[] {
  const inputs: EntryInput[] = []
  for (let index = 0; index < count; index++) {
    const toolCallId = `call-${index}`
    if (index % 3 === 0)
      inputs.push({
        kind: 'message',
        payload: { role: 'user', content: `Question ${index}: what is the weather in Oslo and Bergen tomorrow? 🙂 `.repeat(3) },
      })
    else if (index % 3 === 1)
      inputs.push({
        kind: 'tool_call',
        payload: { name: 'weather', arguments: { city: 'Oslo', days: 3, units: { temperature: 'celsius', wind: 'm/s' } } },
        refs: { callId: `m-${index}`, toolCallId },
      })
    else
      inputs.push({
        kind: 'tool_result',
        payload: {
          name: 'weather',
          result: {
            forecast: [
              { day: 1, celsius: 3.5 },
              { day: 2, celsius: -1 },
              { day: 3, celsius: 0.25 },
            ],
          },
        },
        refs: { toolCallId: `call-${index - 1}` },
      })
  }
  return inputs
}

interface Row {
  readonly label: string
  readonly bytes: number
  readonly validate: Timing
  readonly stringify: Timing | undefined
}

const rows: Row[] = []
const measure = (label: string, inputs: readonly unknown[], withYardstick = true): void => {
  // Hostile inputs may not stringify at all.
  const bytes = withYardstick ? inputs.reduce<number>((total, input) => total + utf8Length(JSON.stringify(input)), 0) : Number.NaN
  const validate = repeat(
    options,
    () => undefined,
    () => {
      for (const input of inputs) {
        try {
          parseEntryInput(input)
        } catch {
          // Refusals are measured too.
        }
      }
    },
  )
  const stringify = withYardstick
    ? repeat(
        options,
        () => undefined,
        () => inputs.forEach((input) => JSON.stringify(input)),
      )
    : undefined
  rows.push({ label, bytes, validate, stringify })
  process.stderr.write(`[bench] ${label}: ${formatMs(validate.medianMs)}\n`)
}

measure('1,000 typical entries (message, tool call, tool result)', typicalEntries(1_000))
measure('one 1 MB message', [{ kind: 'message', payload: { role: 'assistant', content: 'x'.repeat(1_000_000) } }])
measure('one tool result: 10,000 objects (~0.5 MB)', [
  {
    kind: 'tool_result',
    payload: { name: 'rows', result: Array.from({ length: 10_000 }, (_, id) => ({ id, name: `row ${id}`, ok: id % 2 === 0 })) },
    refs: { toolCallId: 'c' },
  },
])
measure(`one message at the size limit (${entryLimits.maxEntryBytes.toLocaleString('en-US')} B)`, [
  { kind: 'message', payload: { role: 'assistant', content: 'x'.repeat(entryLimits.maxEntryBytes - 1_100) } },
])
const circular: Record<string, unknown> = { x: 1 }
circular['self'] = circular
measure('refused: circular tool arguments', [{ kind: 'tool_call', payload: { name: 't', arguments: circular }, refs: { toolCallId: 'c' } }], false)
measure(
  'refused: tool arguments 10,000 deep',
  [{ kind: 'tool_call', payload: { name: 't', arguments: nested(10_000) }, refs: { toolCallId: 'c' } }],
  false,
)
measure('refused: a 10 MB message', [{ kind: 'message', payload: { role: 'user', content: 'x'.repeat(10_000_000) } }], false)

process.stdout.write(
  `${table(
    'Entry validation on append (parseEntryInput: JSON walk + copy, schema, size) — median per batch',
    ['input', 'JSON bytes', 'validate', 'JSON.stringify', 'ratio'],
    rows.map((row) => [
      row.label,
      Number.isNaN(row.bytes) ? '–' : row.bytes.toLocaleString('en-US'),
      formatMs(row.validate.medianMs),
      row.stringify === undefined ? '–' : formatMs(row.stringify.medianMs),
      row.stringify === undefined ? '–' : `${(row.validate.medianMs / row.stringify.medianMs).toPrecision(3)}×`,
    ]),
  )}\n`,
)

const out = fileURLToPath(new URL('../../../bench-results/entry-validation.json', import.meta.url))
mkdirSync(fileURLToPath(new URL('../../../bench-results/', import.meta.url)), { recursive: true })
writeFileSync(out, `${JSON.stringify({ machine: machine(), rows }, null, 2)}\n`)
