import type { Entry } from '@threadlens/core'
import { recallLineParts } from '@threadlens/core/recall'
import type { MemoryMatch } from '@threadlens/core/memory'

// How the recall tool writes what it found: one line per match, a date and a speaker (as the
// projection's recall block writes them) or a memory label, then an excerpt around the words that
// matched, cut to the line's share of the tool's token budget.

/** Of a huge text, only this much (around the match) is ever looked at for a line. */
const MAX_SCANNED_CHARACTERS = 200_000

/** A line's label and its text: `(8 May 2023) user: `, `[memory: world] `. */
export interface LineParts {
  readonly label: string
  readonly text: string
}

/** A thread entry as a line's parts, as the projection's recall block writes it; `undefined` for kinds recall does not search. */
export function entryLine(entry: Entry): LineParts | undefined {
  return recallLineParts(entry)
}

/** A memory match as a line's parts: labelled with its space. */
export function memoryLine(match: MemoryMatch): LineParts {
  return { label: `[memory: ${match.space}] `, text: match.text }
}

/** Where the first matched term starts in `text` (folded terms: `agency` is looked for as `agenc`), or 0. */
function matchPosition(text: string, terms: readonly string[]): number {
  const lower = text.slice(0, MAX_SCANNED_CHARACTERS).toLowerCase()
  let best = Number.POSITIVE_INFINITY
  for (const term of terms) {
    let at = lower.indexOf(term)
    if (at < 0 && term.length > 4) at = lower.indexOf(term.slice(0, -1))
    if (at >= 0 && at < best) best = at
  }
  return best === Number.POSITIVE_INFINITY ? 0 : best
}

/** Where to cut `text` at `at` without splitting a surrogate pair: as a start, after a pair's first half; as an end, before it. */
function safeCut(text: string, at: number, asStart: boolean): number {
  const code = text.charCodeAt(asStart ? at : at - 1)
  if (asStart) return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at
}

/**
 * At most `maxCharacters` of `text` on one line (white space, line breaks included, folded to single
 * spaces, so stored text cannot pose as the tool's own lines), starting a little before the first
 * matched term; `…` marks each cut.
 */
export function excerpt(text: string, terms: readonly string[], maxCharacters: number): string {
  const limit = Math.max(1, maxCharacters)
  // A third of the room for what comes before the match.
  const from = safeCut(text, Math.max(0, matchPosition(text, terms) - Math.floor(limit / 3)), true)
  // Enough raw text for `limit` characters once white space is folded, and never more.
  const rawEnd = safeCut(text, Math.min(text.length, from + limit * 4), false)
  let flat = text.slice(from, rawEnd).replace(/\s+/gu, ' ')
  const cutBefore = from > 0
  if (!cutBefore) flat = flat.trimStart()
  else {
    // Start at a word, when one starts soon enough.
    const space = flat.indexOf(' ')
    if (space >= 0 && space < limit / 3) flat = flat.slice(space + 1)
  }
  const cutAfter = rawEnd < text.length || flat.length > limit
  const body = (flat.length > limit ? flat.slice(0, safeCut(flat, limit, false)) : flat).trimEnd()
  return `${cutBefore ? '…' : ''}${body}${cutAfter ? '…' : ''}`
}
