import type { Entry } from '../entries/entry'
import { toolArgumentsText, toolResultText } from '../entries/entry-text'
import { countsLinesApart, type TokenCounter } from '../tokens/token-counter'

// The recall block's lines: a recalled entry as one dated line, and what each line costs.

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** A day as people write it, in UTC so the same entry always renders the same: `8 May 2023`. */
export function recallDate(time: number): string {
  const date = new Date(time)
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

/** A recalled entry's line in two parts: its label (date, speaker or tool) and what the model would have read. */
export function recallLineParts(entry: Entry, dates = true): { readonly label: string; readonly text: string } | undefined {
  const date = dates ? `(${recallDate(entry.createdAt)}) ` : ''
  switch (entry.kind) {
    case 'message':
      return { label: `${date}${entry.payload.role}: `, text: entry.payload.content }
    case 'tool_call':
      return { label: `${date}assistant called ${entry.payload.name}`, text: `(${toolArgumentsText(entry.payload)})` }
    case 'tool_result':
      return { label: `${date}${entry.payload.name} returned: `, text: toolResultText(entry.payload) }
    default:
      return undefined
  }
}

/** Each line's tokens, newline included, by counter, entry and whether lines carry dates: the same entries are recalled call after call. */
const lineCounts = new WeakMap<TokenCounter, readonly [WeakMap<Entry, number>, WeakMap<Entry, number>]>()

/**
 * An entry's line in the block and its tokens with the newline after it: exact for a counter that
 * counts lines apart (`countsLinesApart`), cached per entry; otherwise an upper bound (the label's
 * count and the entry's own, kept per entry), and the block is counted whole once chosen.
 */
export function recallLine(counter: TokenCounter, entry: Entry, dates: boolean): { readonly line: string; readonly tokens: number } {
  const parts = recallLineParts(entry, dates)
  if (parts === undefined) return { line: '', tokens: 1 }
  const line = `${parts.label}${parts.text}`
  if (!countsLinesApart(counter) || !startsApart(line)) return { line, tokens: counter.countCached(parts.label) + counter.countEntry(entry) + 1 }
  let byDates = lineCounts.get(counter)
  if (byDates === undefined) lineCounts.set(counter, (byDates = [new WeakMap(), new WeakMap()]))
  const counts = byDates[dates ? 1 : 0]
  let tokens = counts.get(entry)
  if (tokens === undefined) counts.set(entry, (tokens = counter.count(`${line}\n`)))
  return { line, tokens }
}

/** A line the GPT encodings' pre-tokenizer splits from the newline before it: one that does not start with white space or `/`. */
export function startsApart(line: string): boolean {
  return line !== '' && !/^[\s/]/u.test(line)
}
