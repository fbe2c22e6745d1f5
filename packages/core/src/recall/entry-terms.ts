import type { Entry } from '../entries/entry'
import { toolArgumentsText, toolResultText } from '../entries/entry-text'
import { recallTerms } from './recall-terms'

/** Text past this many characters of one entry is not indexed: a 10 MB tool output is found by its start. */
const MAX_INDEXED_CHARACTERS = 200_000

/**
 * Which way of working out terms an index or a stored row was made with. A row stored with another
 * version is worked out again from its entry (rows are kept beside the entries, in IndexedDB).
 */
export const RECALL_TERMS_VERSION = 1

/** The text recall searches in an entry: what the model would read of it. Summaries and context ops are not searched. */
export function recallText(entry: Entry): string | undefined {
  switch (entry.kind) {
    case 'message':
      return entry.payload.content
    case 'tool_call':
      return `${entry.payload.name} ${toolArgumentsText(entry.payload)}`
    case 'tool_result':
      return `${entry.payload.name} ${toolResultText(entry.payload)}`
    default:
      return undefined
  }
}

/** The terms recall indexes of a text: those of its first `MAX_INDEXED_CHARACTERS` characters. */
export function indexedTerms(text: string): string[] {
  return recallTerms(text.length > MAX_INDEXED_CHARACTERS ? text.slice(0, MAX_INDEXED_CHARACTERS) : text)
}

/**
 * What recall indexes of an entry: its terms (duplicates kept), `[]` for text with no searchable
 * word (it still counts as a document), or `undefined` for an entry recall does not search (a
 * summary, a context op, an empty message).
 */
export function entryRecallTerms(entry: Entry): string[] | undefined {
  const text = recallText(entry)
  return text === undefined || text === '' ? undefined : indexedTerms(text)
}
