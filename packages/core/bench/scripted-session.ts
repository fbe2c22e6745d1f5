import type { JsonObject, JsonValue, ToolSchema } from '../src/index'
import { TextSource } from './generate-thread'

/**
 * A scripted agent session for the context-quality bench: what the user asks, which tools the model
 * calls and what they return, and what the model answers, turn by turn. Deterministic (same seed,
 * same session) and independent of any projection, so every policy sees exactly the same calls.
 */
export const SESSION_SYSTEM_PROMPT =
  'You are a careful coding assistant working in the user’s repository. Use the tools to look things up before answering, cite tool results, and say when you are unsure.'

export const SESSION_TOOLS: readonly ToolSchema[] = [
  {
    name: 'search',
    description: 'Full-text search over the repository and its issue tracker.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for.' }, limit: { type: 'integer', minimum: 1, maximum: 50 } },
      required: ['query'],
    },
  },
  {
    name: 'read_file',
    description: 'Reads a file of the repository; long files come back cut to head and tail.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'Path from the repository root.' } }, required: ['path'] },
  },
  {
    name: 'sql_query',
    description: 'Runs a read-only SQL query against the analytics replica.',
    parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
  },
  {
    name: 'fetch_url',
    description: 'Fetches a URL and returns its body.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, headers: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['url'],
    },
  },
  {
    name: 'weather',
    description: 'Weather forecast for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city'] },
  },
]

const toolNames = ['search', 'read_file', 'sql_query', 'fetch_url', 'weather'] as const

export interface ScriptedToolCall {
  readonly name: string
  readonly arguments: JsonObject
  readonly output: JsonValue
}

export interface ScriptedTurn {
  readonly user: string
  /** The model's first call asks for tools (about two turns in five); it is then called again. */
  readonly toolRound: { readonly text: string | undefined; readonly calls: readonly ScriptedToolCall[] } | undefined
  readonly answer: string
}

/** Result sizes in o200k tokens, roughly: 40% up to 300, 40% up to 1,000, 20% 1,000–3,000. */
function targetTokens(text: TextSource): number {
  const roll = text.integer(0, 99)
  if (roll < 40) return text.integer(50, 300)
  if (roll < 80) return text.integer(300, 1_000)
  return text.integer(1_000, 3_000)
}

function toolOutput(text: TextSource, name: (typeof toolNames)[number], tokens: number): JsonValue {
  // A generated code line is ~17 tokens, a result row ~40: close enough to hit the size class.
  if (name === 'read_file') return text.code(Math.max(3, Math.round(tokens / 17)))
  const rows = Math.max(1, Math.round(tokens / 40))
  const items: JsonValue[] = []
  for (let position = 0; position < rows; position++) {
    items.push({
      id: text.integer(1, 1_000_000),
      title: text.prose(1),
      score: text.integer(0, 1000) / 1000,
      tags: [text.pick(['open', 'closed', 'draft']), text.pick(['p1', 'p2', 'p3'])],
    })
  }
  return { status: 'ok', count: rows, items }
}

export function scriptedSession(turns: number, seed = 20_251_201): ScriptedTurn[] {
  const text = new TextSource(seed)
  return Array.from({ length: turns }, (): ScriptedTurn => {
    const user = text.userText()
    let toolRound: ScriptedTurn['toolRound']
    if (text.chance(0.4)) {
      const preamble = text.chance(0.5) ? text.prose(1) : undefined
      const calls = Array.from({ length: text.integer(1, 2) }, (): ScriptedToolCall => {
        const name = text.pick(toolNames)
        return { name, arguments: text.toolArguments(name), output: toolOutput(text, name, targetTokens(text)) }
      })
      toolRound = { text: preamble, calls }
    }
    return { user, toolRound, answer: text.assistantText() }
  })
}
