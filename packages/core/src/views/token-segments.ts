import { TokenizerLoadError } from '../errors/threadlens-error'
import type { EncodingName } from '../tokens/token-counter'

const noSpecialTokens = { disallowedSpecial: new Set<string>() }

/**
 * The pieces of `text` as an encoding splits it into tokens, in order: joined, they give `text` back.
 * A character split over several tokens comes out whole in the piece that completes it (so a piece
 * may stand for more than one token, and `tokens` says how many). Loads the encoding lazily, as
 * `createTokenCounter` does (the same chunk, downloaded once).
 */
export async function tokenSegments(text: string, encoding: EncodingName): Promise<{ readonly text: string; readonly tokens: number }[]> {
  let module: typeof import('gpt-tokenizer/encoding/o200k_base')
  try {
    module = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base')
  } catch (error) {
    throw new TokenizerLoadError(encoding, { cause: error })
  }
  const segments: { text: string; tokens: number }[] = []
  const replacementInText = text.includes('\uFFFD')
  let group: number[] = []
  let done = 0
  for (const token of module.encode(text, noSpecialTokens)) {
    group.push(token)
    const piece = module.decode(group)
    // Part of a multi-byte character decodes to U+FFFD: wait for the token that completes it.
    if (!replacementInText && piece.includes('\uFFFD')) continue
    segments.push({ text: piece, tokens: group.length })
    done += piece.length
    group = []
  }
  // Whatever never decoded cleanly (only with U+FFFD in the text itself) is the rest of the text.
  if (group.length > 0) segments.push({ text: text.slice(done), tokens: group.length })
  return segments
}
