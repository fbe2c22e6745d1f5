import { readEntryData } from './src/entries/entry-schema'
import { entryReader } from './src/entries/entry-readers'
import { read } from './src/validation/readers'
import { buildThread, actionArbitrary } from './src/testing/random-thread'
import fc from 'fast-check'
const actions = fc.sample(actionArbitrary, { numRuns: 6000, seed: 7 })
const entries = buildThread(actions).entries.slice(0, 10000)
const rows = entries.map((entry) => JSON.parse(JSON.stringify(entry)))
const clean = rows.map((row) => readEntryData(row))
function time(label: string, list: unknown[], run: (row: unknown) => unknown) {
  const runs: number[] = []
  for (let round = 0; round < 7; round++) { const start = performance.now(); for (const row of list) run(row); runs.push(performance.now() - start) }
  runs.sort((a, b) => a - b)
  console.log(label, list.length, 'entries, median', runs[3]!.toFixed(1), 'ms')
}
time('entryReader on clean', clean, (row) => read(entryReader, row))
;(globalThis as any).skipJson = true
time('entryReader on clean, no json rewalk', clean, (row) => read(entryReader, row))
