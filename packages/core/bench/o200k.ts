import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { customTokenCounter, type TokenCounter } from '../src/tokens/token-counter'

// Special-token markers in text count as plain text, as in the library's own counter.
const noSpecialTokens = { disallowedSpecial: new Set<string>() }

/** The one tokenizer both sides use: gpt-tokenizer's o200k_base, uncached. */
export function countO200k(text: string): number {
  return countTokens(text, noSpecialTokens)
}

/**
 * Forgets what the tokenizer has seen: gpt-tokenizer keeps an LRU of BPE merges per word piece,
 * which would make a "cold" run partly warm. Called before every cold run, on both sides.
 */
export function forgetTokenizerMerges(): void {
  clearMergeCache()
}

/** A counter that has counted nothing yet: what a projection sees right after a page load. */
export function coldCounter(): TokenCounter {
  forgetTokenizerMerges()
  return customTokenCounter('o200k_base', countO200k, true)
}
