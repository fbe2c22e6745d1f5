import type { Entry } from '../entries/entry'
import { CachingCounter, type EncodingName, type TokenCounter } from './token-counter'

// The GPT encodings split text into pieces before byte-pair merging (tiktoken's o200k_base
// pattern), and a piece is never merged with the next: a text costs at least one token per
// piece. Counting pieces, and long pieces by their characters, follows the exact count far more
// closely than characters alone, with no ranks to download.
const contraction = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`
const piecePattern = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${contraction}`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${contraction}`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'gu',
)

// Tokens per character inside a piece, by script, fitted to each encoding on public text (see
// packages/core/bench/tokens/estimate.bench.ts, which prints the error per corpus). cl100k_base
// splits text outside Latin script much finer than o200k_base.
interface ScriptWeights {
  readonly asciiLetter: number
  readonly asciiOther: number
  /** U+0080–U+036F: accented Latin */
  readonly latinExtended: number
  /** U+0370–U+052F */
  readonly greekCyrillic: number
  /** U+0530–U+2FFF: Armenian to Devanagari, Thai, symbols */
  readonly otherScripts: number
  /** U+3000 and up: CJK, kana, hangul, emoji */
  readonly wide: number
}

const weights: Readonly<Record<EncodingName, ScriptWeights>> = {
  o200k_base: { asciiLetter: 1 / 6, asciiOther: 1 / 6, latinExtended: 0.3, greekCyrillic: 0.2, otherScripts: 0.4, wide: 0.7 },
  cl100k_base: { asciiLetter: 1 / 6, asciiOther: 1 / 6, latinExtended: 0.7, greekCyrillic: 0.6, otherScripts: 0.7, wide: 1 },
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

function pieceTokens(piece: string, script: ScriptWeights): number {
  let weight = 0
  for (let index = 0; index < piece.length; index++) {
    const code = piece.codePointAt(index) as number
    if (code > 0xffff) index++
    if (code < 0x80) weight += isAsciiLetter(code) ? script.asciiLetter : script.asciiOther
    else if (code < 0x370) weight += script.latinExtended
    else if (code < 0x530) weight += script.greekCyrillic
    else if (code < 0x3000) weight += script.otherScripts
    else weight += script.wide
  }
  return Math.max(1, Math.ceil(weight - 1e-9))
}

/** An estimate of `text`'s tokens under `encoding`, before any margin: one or more per piece. */
export function estimateTokens(text: string, encoding: EncodingName = 'o200k_base'): number {
  const script = weights[encoding]
  let tokens = 0
  for (const match of text.matchAll(piecePattern)) tokens += pieceTokens(match[0], script)
  return tokens
}

/**
 * What an estimate is multiplied by so that it is never below the exact count: the largest
 * ratio exact / estimate measured over every stretch of 2,000 tokens of public conversations,
 * READMEs, source code, JSON and UI strings in about 40 languages (1.25 for o200k_base and 1.52
 * for cl100k_base, UI strings in Finnish, Polish and Hungarian being the worst), rounded up.
 * `estimate.bench.ts` prints it.
 */
export const ESTIMATE_MARGIN: Readonly<Record<EncodingName, number>> = { o200k_base: 1.3, cl100k_base: 1.55 }

/** An estimating counter's id is its encoding's followed by this. */
const estimateSuffix = '~estimate'

/** Marks the estimating counters, and which encoding each stands in for. */
const standsInFor = new WeakMap<TokenCounter, EncodingName>()

/** The encoding an estimating counter stands in for, or `undefined` for any other counter. */
export function estimatedEncoding(counter: TokenCounter): EncodingName | undefined {
  return standsInFor.get(counter)
}

class EstimatingCounter extends CachingCounter {
  constructor(readonly encoding: EncodingName) {
    const margin = ESTIMATE_MARGIN[encoding]
    super(`${encoding}${estimateSuffix}`, false, (text) => Math.ceil(estimateTokens(text, encoding) * margin))
  }

  override countEntry(entry: Entry): number {
    // A count the store saved with the exact encoding beats any estimate.
    return entry.meta?.tokens?.[this.encoding] ?? super.countEntry(entry)
  }
}

const estimating = new Map<EncodingName, TokenCounter>()

/**
 * A counter that needs no download and is never below `encoding`'s exact count on the text it was
 * measured on: a piece-by-piece estimate times `ESTIMATE_MARGIN`. Projections use it while the
 * exact ranks load (`meta.tokens.estimated` is then `true`), so a request sent early fits the
 * budget with room to spare instead of waiting for about 1 MB of ranks.
 */
export function estimatedTokenCounter(encoding: EncodingName = 'o200k_base'): TokenCounter {
  let counter = estimating.get(encoding)
  if (counter === undefined) {
    counter = new EstimatingCounter(encoding)
    standsInFor.set(counter, encoding)
    estimating.set(encoding, counter)
  }
  return counter
}

/** The encoding an estimating counter's id (`'o200k_base~estimate'`, as recorded in `meta.counter` and call records) stands in for; else `undefined`. */
export function estimateIdEncoding(id: string): EncodingName | undefined {
  if (!id.endsWith(estimateSuffix)) return undefined
  const encoding = id.slice(0, -estimateSuffix.length)
  return Object.hasOwn(weights, encoding) ? (encoding as EncodingName) : undefined
}

/** The estimating counter whose id is `id`, to replay a call counted with it; else `undefined`. */
export function estimatedCounterById(id: string): TokenCounter | undefined {
  const encoding = estimateIdEncoding(id)
  return encoding === undefined ? undefined : estimatedTokenCounter(encoding)
}
