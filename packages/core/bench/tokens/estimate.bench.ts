import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'
import { ESTIMATE_MARGIN, estimateTokens } from '../../src/tokens/estimated-counter'
import { heuristicCount, type EncodingName } from '../../src/tokens/token-counter'
import { corpora } from './corpora'

// How far the download-free estimate is from the exact counts, on public text: per corpus, the
// ratio exact / estimate over the whole corpus and over its worst stretch of consecutive texts
// worth 2,000 exact tokens (the smallest share of a window a projection is made of), next to the
// plain characters/4 heuristic. The margin must cover the worst stretch; the fill column is the
// share of a budget a projection counted with the estimate actually uses (1 / margin·ratio).

const noSpecialTokens = { disallowedSpecial: new Set<string>() }
const exactCounters: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, noSpecialTokens),
  cl100k_base: (text) => countCl100k(text, noSpecialTokens),
}
const stretchTokens = 2000

interface Fit {
  readonly ratio: number
  readonly worstStretch: number
}

function fit(exact: readonly number[], estimate: readonly number[]): Fit {
  let exactTotal = 0
  let estimateTotal = 0
  for (let index = 0; index < exact.length; index++) {
    exactTotal += exact[index] as number
    estimateTotal += estimate[index] as number
  }
  let worstStretch = 0
  let end = 0
  let stretchExact = 0
  let stretchEstimate = 0
  // Two pointers: every stretch starting at `start` that first reaches `stretchTokens`.
  for (let start = 0; start < exact.length; start++) {
    while (end < exact.length && stretchExact < stretchTokens) {
      stretchExact += exact[end] as number
      stretchEstimate += estimate[end] as number
      end++
    }
    if (stretchExact >= stretchTokens) worstStretch = Math.max(worstStretch, stretchExact / stretchEstimate)
    stretchExact -= exact[start] as number
    stretchEstimate -= estimate[start] as number
  }
  return { ratio: exactTotal / estimateTotal, worstStretch }
}

function main(): void {
  const texts = corpora()
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    const margin = ESTIMATE_MARGIN[encoding]
    console.log(`\n${encoding} · margin ×${margin} · stretches of ${stretchTokens} exact tokens`)
    console.log('corpus        texts   tokens | estimate: ratio  worst  fill | chars/4: ratio  worst')
    let worst = 0
    for (const [name, corpus] of Object.entries(texts)) {
      const exact = corpus.map(exactCounters[encoding])
      const estimate = fit(
        exact,
        corpus.map((text) => estimateTokens(text, encoding)),
      )
      const chars = fit(exact, corpus.map(heuristicCount))
      worst = Math.max(worst, estimate.worstStretch)
      const tokens = exact.reduce((sum, count) => sum + count, 0)
      console.log(
        `${name.padEnd(12)} ${String(corpus.length).padStart(6)} ${String(tokens).padStart(8)} |` +
          `        ${estimate.ratio.toFixed(3)}  ${estimate.worstStretch.toFixed(3)}  ${(100 / (margin * estimate.ratio)).toFixed(0).padStart(3)}% |` +
          `       ${chars.ratio.toFixed(3)}  ${chars.worstStretch.toFixed(3)}`,
      )
    }
    console.log(
      `worst stretch ×${worst.toFixed(3)} ${worst <= margin ? '≤' : '>'} margin ×${margin}${worst <= margin ? '' : ': raise ESTIMATE_MARGIN'}`,
    )
  }
  const all = Object.values(texts).flat()
  const started = performance.now()
  for (const text of all) estimateTokens(text, 'o200k_base')
  const estimateMs = performance.now() - started
  const exactStarted = performance.now()
  for (const text of all) countO200k(text, noSpecialTokens)
  const exactMs = performance.now() - exactStarted
  console.log(
    `\nspeed over all ${all.length} texts: estimate ${estimateMs.toFixed(0)} ms, o200k_base exact ${exactMs.toFixed(0)} ms (ranks already loaded)`,
  )
}

main()
