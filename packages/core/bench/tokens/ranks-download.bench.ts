// `npm run bench` step: what the exact counter's download could weigh. The o200k_base ranks as
// gpt-tokenizer 4 ships them (a JS module: an array of 200k token strings, byte arrays for the
// tokens it keeps as bytes), side by side with the same ranks as a binary file (each token's bytes
// behind a one-byte header, in rank order), each gzipped (level 9) and brotli-compressed
// (quality 11), and the time to turn each into the array the encoder is built from (Node, median of
// 5). The binary form is measured, not shipped: see BENCHMARKS.md. Fails on nothing.
import { performance } from 'node:perf_hooks'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

type Rank = string | number[]

const require = createRequire(import.meta.url)
const modulePath = require.resolve('gpt-tokenizer/package.json').replace(/package\.json$/, 'esm/bpeRanks/o200k_base.js')
const source = await readFile(modulePath)
const ranks = ((await import('gpt-tokenizer/bpeRanks/o200k_base')) as { default: readonly Rank[] }).default

const encoder = new TextEncoder()
const tokenBytes = (rank: Rank): Uint8Array => (typeof rank === 'string' ? encoder.encode(rank) : Uint8Array.from(rank))

/**
 * Each token's bytes behind a one-byte header, in rank order: the length minus one (tokens are 1 to
 * 128 bytes long), plus 128 for a token gpt-tokenizer keeps as bytes rather than a string.
 */
function binaryRanks(all: readonly Rank[]): Uint8Array {
  const parts = all.map(tokenBytes)
  const longest = parts.reduce((most, part) => Math.max(most, part.length), 0)
  if (longest > 128 || parts.some((part) => part.length === 0))
    throw new Error(`token lengths must be 1 to 128 bytes for the header's seven bits (longest: ${longest})`)
  const out = new Uint8Array(parts.reduce((sum, part) => sum + 1 + part.length, 0))
  let at = 0
  parts.forEach((part, index) => {
    out[at++] = part.length - 1 + (typeof all[index] === 'string' ? 0 : 128)
    out.set(part, at)
    at += part.length
  })
  return out
}

/** Back to the array gpt-tokenizer's encoder takes: strings for UTF-8 tokens, byte arrays for the rest. */
function readBinaryRanks(bytes: Uint8Array): Rank[] {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const out: Rank[] = []
  let at = 0
  while (at < bytes.length) {
    const header = bytes[at++] as number
    const length = (header & 127) + 1
    const token = bytes.subarray(at, at + length)
    at += length
    out.push(header >= 128 ? [...token] : decoder.decode(token))
  }
  return out
}

const binary = binaryRanks(ranks)
const roundTrip = readBinaryRanks(binary)
if (roundTrip.length !== ranks.length || roundTrip.some((rank, index) => JSON.stringify(rank) !== JSON.stringify(ranks[index])))
  throw new Error('the binary ranks do not read back to the same array')

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length
const brotli = (bytes: Uint8Array) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

function timeMs(run: () => unknown): number {
  const runs: number[] = []
  for (let round = 0; round < 5; round++) {
    const started = performance.now()
    run()
    runs.push(performance.now() - started)
  }
  return median(runs)
}

// Evaluating the module's source is what a browser does with the chunk (parse and run the array literal).
const moduleText = source.toString('utf8').replace(/^export \{ bpe as default \};?\s*$/m, 'return bpe;')
const evaluate = () => new Function(moduleText)() as Rank[]
if (evaluate().length !== ranks.length) throw new Error('the module did not evaluate to the ranks')

console.log(`o200k_base ranks (${ranks.length.toLocaleString('en')} tokens), as shipped and as a binary file (Node ${process.version})`)
console.log("| form | raw | gzip -9 | brotli 11 | to the encoder's array (median of 5) |")
console.log('|---|---:|---:|---:|---:|')
console.log(`| gpt-tokenizer's JS module | ${kb(source.length)} | ${kb(gzip(source))} | ${kb(brotli(source))} | ${timeMs(evaluate).toFixed(0)} ms |`)
console.log(
  `| binary, length-prefixed | ${kb(binary.length)} | ${kb(gzip(binary))} | ${kb(brotli(binary))} | ${timeMs(() => readBinaryRanks(binary)).toFixed(0)} ms |`,
)
