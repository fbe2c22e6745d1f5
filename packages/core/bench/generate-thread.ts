import type { EntryInput, JsonObject, JsonValue } from '../src/index'
import { createThread, type Thread } from '../src/index'
import { seededRandom } from '../src/testing/seeded-random'

/**
 * Deterministic, realistic threads for the bench: user and assistant prose of varied length
 * (some long pastes and code, some unicode), and model calls of which about one in five makes
 * 1–3 parallel tool calls whose results (structured JSON, or text for file reads) range from a few
 * bytes to tens of kilobytes.
 * Same size and seed, same thread: the LangChain worker rebuilds it on its own and gets the same messages.
 */
export const SYSTEM_PROMPT = 'You are a careful assistant. Answer briefly, cite tool results, and say when you are unsure.'

const words = (
  'the a of to and in is it that for on with as was be by this are or from at an not have can but all ' +
  'model context window token budget thread entry message tool call result query file line error value ' +
  'function return string number object array index cache store request response latency memory policy ' +
  'please could you check why does how when where which would should maybe think looks like works fails ' +
  'browser server client database table column schema migration release version deploy build test bench ' +
  'weather city forecast temperature rain wind tomorrow today week report summary draft email meeting ' +
  'customer order invoice payment refund account user admin permission role team project deadline'
).split(' ')

const unicodeSnippets = [
  'naïve café',
  '東京都の天気は？',
  '🙂🚀',
  '한국어 문장',
  'Ünïcödé ẞ',
  'Привет, мир',
  'αβγ δέλτα',
  '👨‍👩‍👧‍👦',
  'résumé — déjà vu',
  '数据库迁移失败了',
]

const toolNames = ['search', 'read_file', 'weather', 'sql_query', 'fetch_url'] as const

export class TextSource {
  readonly #random: () => number
  constructor(seed: number) {
    this.#random = seededRandom(seed)
  }

  chance(probability: number): boolean {
    return this.#random() < probability
  }

  integer(min: number, max: number): number {
    return min + Math.floor(this.#random() * (max - min + 1))
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#random() * items.length)] as T
  }

  sentence(): string {
    const count = this.integer(5, 20)
    const parts: string[] = []
    for (let position = 0; position < count; position++) {
      parts.push(this.chance(0.03) ? this.pick(unicodeSnippets) : this.pick(words))
    }
    const text = parts.join(' ')
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${this.pick(['.', '.', '.', '?', '!'])}`
  }

  prose(sentences: number): string {
    const parts: string[] = []
    for (let position = 0; position < sentences; position++) parts.push(this.sentence())
    return parts.join(this.chance(0.2) ? '\n\n' : ' ')
  }

  code(lines: number): string {
    const parts = ['```ts']
    for (let position = 0; position < lines; position++) {
      parts.push(`  const ${this.pick(words)}${position} = ${this.pick(words)}.${this.pick(words)}(${this.integer(0, 999)}, '${this.pick(words)}')`)
    }
    parts.push('```')
    return parts.join('\n')
  }

  userText(): string {
    // Mostly short asks; one in ten pastes a log, a document or code.
    if (this.chance(0.1))
      return `${this.prose(this.integer(1, 2))}\n\n${this.chance(0.5) ? this.code(this.integer(20, 80)) : this.prose(this.integer(15, 50))}`
    return this.prose(this.integer(1, 4))
  }

  assistantText(): string {
    if (this.chance(0.15)) return `${this.prose(this.integer(2, 5))}\n\n${this.code(this.integer(10, 60))}\n\n${this.prose(this.integer(1, 3))}`
    return this.prose(this.integer(2, 12))
  }

  toolArguments(name: (typeof toolNames)[number]): JsonObject {
    switch (name) {
      case 'search':
        return { query: this.prose(1), limit: this.integer(3, 20) }
      case 'read_file':
        return { path: `src/${this.pick(words)}/${this.pick(words)}-${this.pick(words)}.ts` }
      case 'weather':
        return { city: this.pick(['Oslo', 'Lisboa', '東京', 'São Paulo', 'Zürich', 'Reykjavík']), days: this.integer(1, 7) }
      case 'sql_query':
        return { sql: `select ${this.pick(words)}, ${this.pick(words)} from ${this.pick(words)} where id > ${this.integer(0, 9999)} limit 50` }
      case 'fetch_url':
        return { url: `https://example.com/${this.pick(words)}/${this.integer(1, 99999)}`, headers: { accept: 'application/json' } }
    }
  }

  /** JSON results from a few bytes to ~40 KB; most are a few hundred bytes to a few KB. */
  toolResult(): JsonValue {
    const roll = this.#random()
    const rows = roll < 0.3 ? this.integer(0, 2) : roll < 0.85 ? this.integer(3, 25) : roll < 0.97 ? this.integer(30, 120) : this.integer(150, 300)
    const items: JsonValue[] = []
    for (let position = 0; position < rows; position++) {
      items.push({
        id: this.integer(1, 1_000_000),
        title: this.prose(1),
        score: Math.round(this.#random() * 1000) / 1000,
        tags: [this.pick(words), this.pick(words)],
        ok: this.chance(0.9),
      })
    }
    return { status: 'ok', count: rows, items }
  }
}

/** What one thread of a given size is made of, for the printed header. */
export interface ThreadShape {
  readonly entries: number
  readonly messages: number
  readonly toolCalls: number
  readonly toolResults: number
  readonly textMegabytes: number
}

/** The inputs of a thread with exactly `size` entries, ending with the user's latest message. */
export function threadInputs(size: number, seed = 20_251_122): EntryInput[] {
  const text = new TextSource(seed ^ size)
  const inputs: EntryInput[] = []
  let callNumber = 0
  const turn = (): EntryInput[] => {
    const entries: EntryInput[] = [{ kind: 'message', payload: { role: 'user', content: text.userText() } }]
    // The agent loop: about one model call in five asks for tools, then the model is called again.
    for (let modelCall = 0; modelCall < 6; modelCall++) {
      const callId = `model-${callNumber++}`
      if (modelCall === 5 || !text.chance(0.2)) {
        entries.push({ kind: 'message', payload: { role: 'assistant', content: text.assistantText() }, refs: { callId } })
        break
      }
      if (text.chance(0.5)) entries.push({ kind: 'message', payload: { role: 'assistant', content: text.prose(1) }, refs: { callId } })
      const calls = Array.from({ length: text.integer(1, 3) }, (_, position) => {
        const name = text.pick(toolNames)
        return { name, toolCallId: `${callId}-tool-${position}`, arguments: text.toolArguments(name) }
      })
      for (const call of calls) {
        entries.push({ kind: 'tool_call', payload: { name: call.name, arguments: call.arguments }, refs: { callId, toolCallId: call.toolCallId } })
      }
      for (const call of calls) {
        // File reads come back as text; the other tools return structured JSON.
        const result = call.name === 'read_file' ? text.code(text.integer(5, 120)) : text.toolResult()
        entries.push({ kind: 'tool_result', payload: { name: call.name, result }, refs: { callId, toolCallId: call.toolCallId } })
      }
    }
    return entries
  }
  for (;;) {
    const next = turn()
    if (inputs.length + next.length > size - 1) break
    inputs.push(...next)
  }
  // Pad with plain replies so every size is exact, and end on the question about to be answered.
  while (inputs.length < size - 1)
    inputs.push({ kind: 'message', payload: { role: 'assistant', content: text.assistantText() }, refs: { callId: `model-${callNumber++}` } })
  inputs.push({ kind: 'message', payload: { role: 'user', content: text.userText() } })
  return inputs
}

/** `count` more messages in the same style (the assistant's reply, then the user's next ask, …). */
export function continuationInputs(count: number, seed = 7): EntryInput[] {
  const text = new TextSource(seed)
  return Array.from({ length: count }, (_, position): EntryInput =>
    position % 2 === 0
      ? { kind: 'message', payload: { role: 'assistant', content: text.assistantText() }, refs: { callId: `continuation-${position}` } }
      : { kind: 'message', payload: { role: 'user', content: text.userText() } },
  )
}

/** A `Thread` of exactly `size` entries with fixed ids and clock, so two builds are identical. */
export function buildThread(size: number, seed?: number): Thread {
  let counter = 0
  const thread = createThread({ id: `bench-${size}`, now: () => 1_763_800_000_000 + counter, createId: () => `entry-${counter++}` })
  const inputs = threadInputs(size, seed)
  // appendMany validates each input; chunks keep its all-or-nothing bookkeeping small.
  for (let start = 0; start < inputs.length; start += 5_000) thread.appendMany(inputs.slice(start, start + 5_000))
  return thread
}

export function shapeOf(thread: Thread): ThreadShape {
  let messages = 0
  let toolCalls = 0
  let toolResults = 0
  let characters = 0
  for (const entry of thread.entries) {
    if (entry.kind === 'message') {
      messages++
      characters += entry.payload.content.length
    } else if (entry.kind === 'tool_call') {
      toolCalls++
      characters += JSON.stringify(entry.payload.arguments).length
    } else if (entry.kind === 'tool_result') {
      toolResults++
      characters += JSON.stringify(entry.payload.result).length
    }
  }
  return { entries: thread.entries.length, messages, toolCalls, toolResults, textMegabytes: characters / 1_000_000 }
}
