import type { Entry } from '../entries/entry'
import { toolArgumentsText, toolResultText } from '../entries/entry-text'
import { TokenizerLoadError } from '../errors/threadlens-error'
import type { MessagePayload } from '../entries/entry'
import { afterFirstPaint } from './after-first-paint'
import { attachmentTokens } from '../parts/attachment-tokens'

export type EncodingName = 'o200k_base' | 'cl100k_base'
/** Built-in counters, or any id of your own (see `customTokenCounter`). */
export type CounterId = EncodingName | 'heuristic' | (string & {})

/**
 * Tokens every chat message costs beyond its content (role and separators), as in OpenAI's
 * published accounting for chat models: 3 per message, and 3 more per request to prime the reply.
 */
export const MESSAGE_OVERHEAD_TOKENS = 3
export const REPLY_PRIMING_TOKENS = 3
/** Per tool call inside an assistant message (id, type and framing around name and arguments). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3

/** A tool the model may call, as passed to `project` for counting and to model clients. */
export interface ToolSchema {
  readonly name: string
  readonly description?: string
  /** JSON Schema of the arguments. */
  readonly parameters: { readonly [key: string]: unknown }
}

export interface TokenCounter {
  /** `o200k_base`, `cl100k_base` or `heuristic`. Stored token counts are keyed by it. */
  readonly id: CounterId
  /** `true` for gpt-tokenizer encodings; `false` for the heuristic estimate. */
  readonly exact: boolean
  /** Tokens of raw text (special-token markers in the text count as plain text, as the APIs do). */
  count(text: string): number
  /**
   * What an entry costs in a projection, computed once per entry and counter and cached
   * (or read from `entry.meta.tokens[counter.id]` when the store saved it).
   */
  countEntry(entry: Entry): number
  /** Tokens of a string that recurs across projections (system prompt, memory), cached by value. */
  countCached(text: string): number
  /** Tool schemas as the request carries them; cached per array. */
  countTools(tools: readonly ToolSchema[]): number
}

const recentLimit = 512

/** A counter that caches what it counted per entry, per tool array and per recurring string. */
export class CachingCounter implements TokenCounter {
  readonly #entryCounts = new WeakMap<Entry, number>()
  readonly #toolCounts = new WeakMap<readonly ToolSchema[], number>()
  readonly #recent = new Map<string, number>()

  constructor(
    readonly id: CounterId,
    readonly exact: boolean,
    readonly count: (text: string) => number,
  ) {}

  countEntry(entry: Entry): number {
    const stored = entry.meta?.tokens?.[this.id]
    if (stored !== undefined) return stored
    const cached = this.#entryCounts.get(entry)
    if (cached !== undefined) return cached
    const counted = this.#measure(entry)
    this.#entryCounts.set(entry, counted)
    return counted
  }

  #measure(entry: Entry): number {
    switch (entry.kind) {
      case 'message':
        return messageTokens(entry.payload, this.count)
      case 'tool_call':
        return TOOL_CALL_OVERHEAD_TOKENS + this.count(entry.payload.name) + this.count(toolArgumentsText(entry.payload))
      case 'tool_result':
        return MESSAGE_OVERHEAD_TOKENS + this.count(toolResultText(entry.payload))
      case 'summary':
        // The summary message's cost depends on the policy's prefix; the projector counts it.
        return MESSAGE_OVERHEAD_TOKENS + this.count(entry.payload.content)
      case 'context_op':
        return 0
    }
  }

  countCached(text: string): number {
    const cached = this.#recent.get(text)
    if (cached !== undefined) return cached
    const counted = this.count(text)
    if (this.#recent.size >= recentLimit) this.#recent.clear()
    this.#recent.set(text, counted)
    return counted
  }

  countTools(tools: readonly ToolSchema[]): number {
    if (tools.length === 0) return 0
    const cached = this.#toolCounts.get(tools)
    if (cached !== undefined) return cached
    const counted = this.count(JSON.stringify(tools.map((tool) => ({ type: 'function', function: tool }))))
    this.#toolCounts.set(tools, counted)
    return counted
  }
}

/**
 * An estimate for models with no public tokenizer: about 4 ASCII characters per token,
 * 2 for other Latin/Greek/Cyrillic letters, 1 per CJK character, 2 per emoji.
 * It can be off by a third on a single message; pair it with a safety margin.
 */
export function heuristicCount(text: string): number {
  let quarterTokens = 0
  for (const character of text) {
    const code = character.codePointAt(0) as number
    if (code < 0x80) quarterTokens += 1
    else if (code < 0x3000) quarterTokens += 2
    else if (code < 0x10000) quarterTokens += 4
    else quarterTokens += 8
  }
  return Math.ceil(quarterTokens / 4)
}

const noSpecialTokens = { disallowedSpecial: new Set<string>() }

async function loadEncoding(encoding: EncodingName): Promise<(text: string) => number> {
  try {
    // Literal specifiers let bundlers split each encoding's ranks into a chunk of its own.
    const module = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base')
    const countTokens = module.countTokens
    return (text) => countTokens(text, noSpecialTokens)
  } catch (error) {
    throw new TokenizerLoadError(encoding, { cause: error })
  }
}

/** The counters `createTokenCounter` knows how to make. */
export type BuiltinCounterId = EncodingName | 'heuristic'

/**
 * Counters whose count of a text is the sum of the counts of its lines, each with its newline, as
 * long as no line starts with white space or `/`: the GPT encodings' pre-tokenizer always splits
 * right after such a newline, and BPE never merges across a split.
 */
const lineAdditive = new WeakSet<TokenCounter>()

/** Whether `counter` counts newline-ended lines apart exactly (see `lineAdditive`): `createTokenCounter`'s encodings do. */
export function countsLinesApart(counter: TokenCounter): boolean {
  return lineAdditive.has(counter)
}

/** The promises `createTokenCounter` returned, by counter: awaiting one starts its load. */
const loading = new Map<CounterId, Promise<TokenCounter>>()
/** The same loads as promises that settle with them and never start them (for threadlens's own watchers). */
const outcomes = new Map<CounterId, Promise<TokenCounter>>()
const loaded = new Map<CounterId, TokenCounter>()

/** A counter already loaded by `createTokenCounter`, or `undefined`: lets a UI switch back without a loading state. */
export function loadedTokenCounter(id: BuiltinCounterId): TokenCounter | undefined {
  return loaded.get(id)
}

/**
 * A promise of `outcome` that calls `begin` when anyone awaits or chains it (`then`, `catch`,
 * `finally`), so awaiting a counter loads it at once while holding one unawaited does not.
 */
function startsWhenAwaited(outcome: Promise<TokenCounter>, begin: () => void): Promise<TokenCounter> {
  class StartsWhenAwaited extends Promise<TokenCounter> {
    static override get [Symbol.species](): PromiseConstructor {
      return Promise
    }
    // oxlint-disable-next-line unicorn/no-thenable -- a Promise subclass: awaiting it is what starts the load
    override then<TResult1 = TokenCounter, TResult2 = never>(
      onFulfilled?: ((value: TokenCounter) => TResult1 | PromiseLike<TResult1>) | null,
      onRejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
    ): Promise<TResult1 | TResult2> {
      begin()
      return super.then(onFulfilled, onRejected)
    }
  }
  const promise = new StartsWhenAwaited((resolve, reject) => {
    outcome.then(resolve, reject)
  })
  // A load that fails while nobody awaits it is not an unhandled rejection (and this starts nothing).
  Promise.prototype.then.call(promise, undefined, () => undefined)
  return promise
}

/**
 * A token counter. Exact encodings load lazily (one dynamic import, about 1 MB gzip for
 * o200k_base), once per page: at once when the promise is awaited, else at the first idle moment
 * after the page's first contentful paint, so holding the promise costs the first paint nothing.
 * Every threadlens API that takes a counter also takes this promise unawaited, and counts with
 * `estimatedTokenCounter` until it resolves.
 */
export function createTokenCounter(id: BuiltinCounterId = 'o200k_base'): Promise<TokenCounter> {
  const existing = loading.get(id)
  if (existing !== undefined) return existing
  if (id === 'heuristic') {
    const heuristic = Promise.resolve<TokenCounter>(new CachingCounter('heuristic', false, heuristicCount))
    loading.set(id, heuristic)
    outcomes.set(id, heuristic)
    void heuristic.then((counter) => loaded.set(id, counter))
    return heuristic
  }
  let begin: () => void = () => undefined
  const outcome = new Promise<TokenCounter>((resolve, reject) => {
    let started = false
    begin = () => {
      if (started) return
      started = true
      loadEncoding(id).then((count) => {
        const counter = new CachingCounter(id, true, count)
        lineAdditive.add(counter)
        resolve(counter)
      }, reject)
    }
  })
  const created = startsWhenAwaited(outcome, begin)
  outcome.then(
    (counter) => loaded.set(id, counter),
    () => {
      loading.delete(id)
      outcomes.delete(id)
    },
  )
  loading.set(id, created)
  outcomes.set(id, outcome)
  void afterFirstPaint().then(begin)
  return created
}

/** The built-in counter a pending `createTokenCounter` promise will resolve to, if it is one. */
export function pendingCounterId(promise: PromiseLike<TokenCounter>): BuiltinCounterId | undefined {
  for (const [id, pending] of loading) if (pending === promise) return id as BuiltinCounterId
  return undefined
}

/** For a `createTokenCounter` promise: one that settles with its load without starting it. */
export function counterOutcome(promise: PromiseLike<TokenCounter>): Promise<TokenCounter> | undefined {
  const id = pendingCounterId(promise)
  return id === undefined ? undefined : outcomes.get(id)
}

/** A counter from your own function (e.g. a provider's tokenizer); it is cached like the others. */
export function customTokenCounter(id: CounterId, count: (text: string) => number, exact: boolean): TokenCounter {
  return new CachingCounter(id, exact, count)
}

/**
 * A message's tokens: the overhead, its text, its speaker name and refusal, and its images and
 * files by the larger of both providers' documented rules (see `attachmentTokens`), so a budget
 * holds whichever provider the request goes to.
 */
export function messageTokens(message: Pick<MessagePayload, 'content' | 'name' | 'refusal' | 'parts'>, count: (text: string) => number): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + count(message.content)
  if (message.name !== undefined) tokens += 1 + count(message.name)
  if (message.refusal !== undefined) tokens += count(message.refusal)
  if (message.parts !== undefined) {
    // Every part is its own block on the wire: a little framing each.
    tokens += message.parts.length + attachmentTokens(message.parts)
  }
  return tokens
}
