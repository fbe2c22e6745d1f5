import type { JsonValue } from '../entries/entry'
import type { TokenCounter } from '../tokens/token-counter'
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter'
import { memo } from '../utils/memo'
import type { Memory, Space, Task } from './memory'

export interface RenderedMemory {
  /** The memory segment's text; `''` when no space was rendered. */
  readonly text: string
  /** Spaces rendered, in order. */
  readonly spaces: readonly string[]
  /** Spaces asked for but left out: missing, or over the token cap (a space is kept or left out whole). */
  readonly omitted: readonly string[]
  readonly rev: number
}

function value(data: JsonValue): string {
  return JSON.stringify(data)
}

function renderSpace(name: string, space: Space): string {
  const lines = [`[${name}] (${space.kind}, rev ${space.rev})`]
  if (name === 'tasks') {
    for (const task of space.data as readonly Task[]) lines.push(`- [${task.status === 'done' ? 'x' : ' '}] ${task.id}: ${task.text}`)
  } else if (space.kind === 'map') {
    for (const [key, item] of Object.entries(space.data)) lines.push(`${key}: ${value(item)}`)
  } else {
    for (const item of space.data) lines.push(`- ${value(item)}`)
  }
  if (lines.length === 1) lines.push('(empty)')
  return lines.join('\n')
}

const cache = new WeakMap<Memory, Map<string, RenderedMemory>>()

/**
 * The chosen spaces as text for the projection's memory segment, in the order asked, each kept
 * whole or left out so the segment stays within `maxTokens` (its message overhead included).
 * Values are shown as JSON, so the model reads exactly what is stored. Memoised per memory value.
 */
export function renderMemory(
  memory: Memory,
  options: { readonly spaces: readonly string[]; readonly maxTokens: number; readonly counter: TokenCounter },
): RenderedMemory {
  const key = `${options.counter.id}\u0000${options.maxTokens}\u0000${options.spaces.join('\u0000')}`
  return memo(
    memo(cache, memory, () => new Map()),
    key,
    () => render(memory, options),
  )
}

function render(memory: Memory, options: Parameters<typeof renderMemory>[1]): RenderedMemory {
  const header = `Memory (rev ${memory.rev}): what you know and intend now.`
  const blocks: string[] = []
  const spaces: string[] = []
  const omitted: string[] = []
  for (const name of options.spaces) {
    const space = memory.spaces[name]
    if (space === undefined) {
      omitted.push(name)
      continue
    }
    const block = renderSpace(name, space)
    if (MESSAGE_OVERHEAD_TOKENS + options.counter.count([header, ...blocks, block].join('\n\n')) > options.maxTokens) {
      omitted.push(name)
      continue
    }
    blocks.push(block)
    spaces.push(name)
  }
  return { text: blocks.length === 0 ? '' : [header, ...blocks].join('\n\n'), spaces, omitted, rev: memory.rev }
}
