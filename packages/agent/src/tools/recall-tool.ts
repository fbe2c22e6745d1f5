import type { Memory, ThreadSource, TokenCounter } from '@threadlens/core'
import { queryMemory } from '@threadlens/core/memory'
import { createRecallIndex, type RecallIndex, type RecallSearcher } from '@threadlens/core/recall'
import { z } from 'zod/mini'
import { defineTool, type Tool, type ToolContext } from './define-tool'
import { entryLine, excerpt, memoryLine, type LineParts } from './recall-lines'

/** The longest query the tool takes: a few words are what it needs. */
const MAX_QUERY_CHARACTERS = 500
/** A line gets at least this many tokens, or fewer matches are shown. */
const MIN_LINE_TOKENS = 24
/** The tool keeps one index of its own per thread, for at most this many threads. */
const OWN_INDEXES = 4

export interface RecallToolOptions {
  /**
   * Where the thread is searched: a recall index (`createRecallIndex()` from
   * `@threadlens/core/recall`). Pass the session's `recall` index so both share one. Default: an
   * index of the tool's own per thread (the last 4 threads it searched are kept).
   */
  readonly index?: RecallSearcher
  /** At most this many matches, best first. Default 5 (1-50). */
  readonly maxResults?: number
  /** The whole result within this many tokens (the session's counter), each match cut to its share. Default 1500 (at least 100). */
  readonly maxTokens?: number
  /**
   * Memory searched too, read on each call (e.g. `() => memoryStore.get(agentId)`); its matches
   * are labelled `[memory: <space>]`. Default: none, only the thread is searched.
   */
  readonly memory?: () => Promise<Memory | undefined> | Memory | undefined
  /** The memory spaces searched. Default: all of them. */
  readonly memorySpaces?: readonly string[]
  /** What the model calls it. Default `recall`. */
  readonly name?: string
}

export interface RecallToolArguments {
  readonly query: string
}

const parameters = z.object({
  query: z.string().check(
    z.maxLength(MAX_QUERY_CHARACTERS, `the query is longer than ${MAX_QUERY_CHARACTERS} characters: search with a few specific words`),
    z.refine((query) => query.trim() !== '', 'the query is empty: search with a few specific words'),
    z.describe('a few specific words to look for (names, places, numbers, topics), e.g. "ferry Bergen booking"'),
  ),
})

/** A match from the thread or memory, ready to render. */
interface Found {
  readonly parts: LineParts
  readonly terms: readonly string[]
  /** Its score over the best score of its source (thread or memory): 1 for the best of each. */
  readonly relative: number
}

/**
 * A built-in tool the model calls with `{ query }` to search the older part of the conversation
 * (messages, tool calls and results before the current turn, none hidden by a `reset`) and,
 * with `memory`, memory spaces, when its context lacks something. It answers with the best matches
 * as text lines, best first: a date and a speaker (as `policy.recall`'s block writes them) or a
 * memory label, then an excerpt around the words that matched; at most `maxResults` of them, the
 * whole within `maxTokens`. It says so plainly when nothing matched or the query has no searchable
 * words; an empty or over-long query is a tool error. Read-only, so `idempotent`.
 * Throws `RangeError` for options out of range.
 */
export function recallTool(options: RecallToolOptions = {}): Tool<RecallToolArguments> {
  const maxResults = checkedOption('maxResults', options.maxResults ?? 5, 1, 50)
  const maxTokens = checkedOption('maxTokens', options.maxTokens ?? 1500, 100, Number.MAX_SAFE_INTEGER)
  const name = options.name ?? 'recall'
  const indexFor = options.index === undefined ? ownIndexes() : () => options.index as RecallSearcher
  const where = options.memory === undefined ? 'the earlier conversation' : 'the earlier conversation and memory'
  return defineTool({
    name,
    description:
      `Searches ${where} (older messages, tool calls and results${options.memory === undefined ? '' : ', memory items'}) and returns the best ` +
      'matching passages with their dates. Use it when the user refers to something said before that is not in your context. ' +
      'Search with specific words (names, places, numbers), not a whole question.',
    parameters,
    idempotent: true,
    async execute({ query }, context) {
      const index = indexFor(context.threadId)
      const terms = [...new Set(index.terms(query))].sort()
      if (terms.length === 0) return noSearchableWords(query)
      const found = [...searchThread(index, context, query, name, maxResults)]
      const memory = options.memory === undefined ? undefined : await readMemory(options.memory)
      if (memory !== undefined && memory !== 'failed') found.push(...searchMemory(memory, query, maxResults, options.memorySpaces))
      // Equally good matches: the thread's first (a stable sort).
      found.sort((a, b) => b.relative - a.relative)
      const quoted = `${terms
        .slice(0, 12)
        .map((term) => `"${term}"`)
        .join(', ')}${terms.length > 12 ? ', …' : ''}`
      const note = memory === 'failed' ? ' (memory could not be read: only the conversation was searched)' : ''
      if (found.length === 0) return `Nothing in ${where} matches ${quoted}.${note}`
      return render(`Matches in ${where} for ${quoted}, best first${note}:`, found.slice(0, maxResults), maxTokens, context.counter)
    },
  })
}

function checkedOption(option: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`recallTool: ${option} must be a whole number from ${min} to ${max}; got ${String(value)}`)
  return value
}

/** One recall index per thread (the most recently used few), for a tool given none: a tool may serve several sessions. */
function ownIndexes(): (threadId: string) => RecallIndex {
  const indexes = new Map<string, RecallIndex>()
  return (threadId) => {
    const index = indexes.get(threadId) ?? createRecallIndex()
    indexes.delete(threadId)
    if (indexes.size >= OWN_INDEXES) indexes.delete(indexes.keys().next().value as string)
    indexes.set(threadId, index)
    return index
  }
}

/**
 * The thread's best matches older than the current turn (the newest user message before this
 * call) and not hidden by a `reset`, leaving out this tool's own calls and results (they repeat
 * what they found).
 */
function searchThread(index: RecallSearcher, context: ToolContext, query: string, name: string, maxResults: number): Found[] {
  const { entries, index: facts } = context.thread
  const first = entries[0]?.seq ?? 0
  const from = Math.max(first, facts.resetSeq + 1)
  const before = currentTurnStart(context.thread, context.toolCallId, first + entries.length)
  if (before <= from) return []
  // Some hits may be this tool's own results: ask for more than are shown (still bounded).
  const hits = index.search({ entries, query, from, before, limit: 3 * maxResults })
  const found: Found[] = []
  const best = hits[0]?.score ?? 1
  for (const hit of hits) {
    const entry = entries[hit.seq - first]
    if (entry === undefined || entry.seq !== hit.seq) continue
    if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && entry.payload.name === name) continue
    const parts = entryLine(entry)
    if (parts !== undefined) found.push({ parts, terms: hit.terms, relative: hit.score / best })
    if (found.length === maxResults) break
  }
  return found
}

/** Seq of the newest user message before this tool call (where the current turn starts), or the call's own seq. */
function currentTurnStart(thread: ThreadSource, toolCallId: string, end: number): number {
  const callSeq = thread.index.callSeqByToolCallId.get(toolCallId) ?? end
  const userSeqs = thread.index.userSeqs
  for (let position = userSeqs.length - 1; position >= 0; position--) {
    const seq = userSeqs[position] as number
    if (seq < callSeq) return seq
  }
  return callSeq
}

async function readMemory(read: NonNullable<RecallToolOptions['memory']>): Promise<Memory | undefined | 'failed'> {
  try {
    return await read()
  } catch {
    return 'failed'
  }
}

function searchMemory(memory: Memory, query: string, maxResults: number, spaces: readonly string[] | undefined): Found[] {
  const matches = queryMemory(memory, query, { topK: maxResults, ...(spaces === undefined ? {} : { spaces }) })
  const best = matches[0]?.score ?? 1
  return matches.map((match) => ({ parts: memoryLine(match), terms: match.terms, relative: match.score / best }))
}

function noSearchableWords(query: string): string {
  const shown = excerpt(query, [], 80)
  return `No searchable words in the query "${shown}": common words (what, the, is…) are not searched. Search again with specific words: names, places, numbers, topics.`
}

/**
 * The header and one line per match, within `maxTokens`: each line cut to an equal share of the
 * room; when even that does not fit, fewer matches (bounded by `maxResults`).
 */
function render(header: string, found: readonly Found[], maxTokens: number, counter: TokenCounter): string {
  const room = maxTokens - counter.count(header) - 1
  for (let shown = found.length; shown > 0; shown--) {
    // Each line's share; the line breaks and numbering are counted in the exact check below.
    const share = Math.floor(room / shown) - 2
    if (share < MIN_LINE_TOKENS && shown > 1) continue
    const lines = found
      .slice(0, shown)
      .map((item, position) => fitLine(`${position + 1}. ${item.parts.label}`, item.parts.text, item.terms, share, counter))
    const text = [header, ...lines].join('\n')
    if (counter.count(text) <= maxTokens) return text
  }
  return `${header}\n(none fits within the tool's ${maxTokens}-token budget)`
}

/** `label` and an excerpt of `text` within `maxTokens`: shortened until the counter agrees (a few tries, then the label alone). */
function fitLine(label: string, text: string, terms: readonly string[], maxTokens: number, counter: TokenCounter): string {
  const labelTokens = counter.count(label)
  let characters = Math.max(1, (maxTokens - labelTokens) * 4)
  for (let attempt = 0; attempt < 8 && characters >= 1; attempt++) {
    const line = `${label}${excerpt(text, terms, characters)}`
    const tokens = counter.count(line)
    if (tokens <= maxTokens) return line
    characters = Math.floor((characters * 0.9 * Math.max(0, maxTokens - labelTokens)) / Math.max(1, tokens - labelTokens))
  }
  return `${label}…`
}
