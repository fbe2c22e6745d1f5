import type { ProjectedMessage, ProjectionResult } from '@threadlens/core'
import { messagePreview, messageRole } from './message-preview'

/** The parts of a request, in request order, plus what the input budget leaves free. */
export type ContextPart = 'tools' | 'system' | 'memory' | 'summary' | 'history' | 'recall' | 'pending' | 'free'
export const contextParts: readonly ContextPart[] = ['tools', 'system', 'memory', 'summary', 'history', 'recall', 'pending', 'free']
export const contextPartLabels: Readonly<Record<ContextPart, string>> = {
  tools: 'tool schemas',
  system: 'system',
  memory: 'memory',
  summary: 'summary',
  history: 'history',
  recall: 'recalled entries',
  pending: 'pending',
  free: 'free',
}

/** One tile of the context map: a projected message, or what is not a message (schemas, overhead, free room). */
export interface ContextBlock {
  readonly key: string
  readonly part: ContextPart
  /** `tool · read_file`, `user`, `12 smaller messages`, … */
  readonly label: string
  /** One line of content (plain text). */
  readonly preview: string
  readonly tokens: number
  /** Indexes in `result.messages` this block stands for (several for a merged "smaller" block). */
  readonly positions: readonly number[]
  /** Thread entries behind it. */
  readonly seqs: readonly number[]
  /** Set when the message carries a masked / pruned / deduped result. */
  readonly reduced?: string
}

export interface ContextGroup {
  readonly part: ContextPart
  readonly tokens: number
  /** Largest first. */
  readonly blocks: readonly ContextBlock[]
}

export interface ContextMapModel {
  /** Non-empty parts in request order, `free` last. */
  readonly groups: readonly ContextGroup[]
  /** The one denominator: the input budget (window minus reserved output). */
  readonly budget: number
  /** What the map's box stands for: the input budget, or the request when it overflows. */
  readonly scale: number
  readonly used: number
  /** Reserved output: outside the input budget, shown beside it. */
  readonly reserved: number
  readonly overflow: boolean
  /** The biggest single consumers of the request, largest first. */
  readonly largest: readonly ContextBlock[]
}

export interface ContextMapOptions {
  /** Tiles per part before the rest are merged into one "smaller messages" tile. Default 24. */
  readonly blocksPerPart?: number
  /** How many largest consumers to list. Default 5. */
  readonly largest?: number
}

// Segments whose messages all share a role say what they are instead (a summary is a system message).
function blockLabel(message: ProjectedMessage, part: ContextPart, seqs: readonly number[]): string {
  if (part === 'summary') return seqs.length === 0 ? 'summary' : `summary #${seqs.join(', #')}`
  if (part === 'memory') return 'memory'
  if (part === 'recall') return seqs.length === 1 ? 'recalled: 1 older entry' : `recalled: ${seqs.length} older entries`
  if (part === 'system' && message.role === 'system') return 'system prompt'
  return messageRole(message)
}

function messageBlock(message: ProjectedMessage, position: number, result: ProjectionResult): ContextBlock {
  const info = result.meta.messages[position]
  const part = info?.segment ?? 'history'
  return {
    key: `m${position}`,
    part,
    label: blockLabel(message, part, info?.seqs ?? []),
    preview: messagePreview(message),
    tokens: info?.tokens ?? 0,
    positions: [position],
    seqs: info?.seqs ?? [],
    ...(info?.reduced === undefined ? {} : { reduced: info.reduced }),
  }
}

/**
 * What takes the room in one request: its parts (sized by `meta.tokens`) broken into messages, the
 * largest first, against the input budget. Tokens a part has beyond its messages (the reply priming
 * counted with the system part) are an "overhead" tile, so the tiles add up to the meter. Pure.
 */
export function contextMap(result: ProjectionResult, options: ContextMapOptions = {}): ContextMapModel {
  const perPart = Math.max(1, options.blocksPerPart ?? 24)
  const { meta } = result
  const byPart = new Map<ContextPart, ContextBlock[]>()
  result.messages.forEach((message, position) => {
    const block = messageBlock(message, position, result)
    let blocks = byPart.get(block.part)
    if (blocks === undefined) byPart.set(block.part, (blocks = []))
    blocks.push(block)
  })
  const partTokens: Record<ContextPart, number> = {
    tools: meta.tokens.tools,
    system: meta.tokens.system,
    memory: meta.tokens.memory,
    summary: meta.tokens.summary,
    history: meta.tokens.history,
    recall: meta.tokens.recall,
    pending: meta.tokens.pending,
    free: Math.max(0, meta.budget.input - meta.tokens.total),
  }
  const groups: ContextGroup[] = []
  const all: ContextBlock[] = []
  for (const part of contextParts) {
    const tokens = partTokens[part]
    if (tokens <= 0) continue
    const messages = [...(byPart.get(part) ?? [])].sort((a, b) => b.tokens - a.tokens || (a.positions[0] ?? 0) - (b.positions[0] ?? 0))
    all.push(...messages)
    const kept = messages.slice(0, messages.length > perPart ? perPart - 1 : perPart)
    const rest = messages.slice(kept.length)
    const blocks: ContextBlock[] = [...kept]
    if (rest.length > 0) {
      blocks.push({
        key: `${part}-rest`,
        part,
        label: `${rest.length} smaller messages`,
        preview: rest
          .map((block) => block.preview)
          .join(' · ')
          .slice(0, 160),
        tokens: rest.reduce((sum, block) => sum + block.tokens, 0),
        positions: rest.map((block) => block.positions[0] as number).sort((a, b) => a - b),
        seqs: rest.flatMap((block) => block.seqs).sort((a, b) => a - b),
      })
    }
    const inMessages = blocks.reduce((sum, block) => sum + block.tokens, 0)
    if (part === 'tools' || part === 'free') {
      blocks.push({
        key: part,
        part,
        label: contextPartLabels[part],
        preview: part === 'free' ? 'room left in the input budget' : 'the tool schemas the request carries',
        tokens,
        positions: [],
        seqs: [],
      })
    } else if (tokens > inMessages) {
      blocks.push({
        key: `${part}-overhead`,
        part,
        label: 'overhead',
        preview: 'tokens the format adds beyond the messages (e.g. reply priming)',
        tokens: tokens - inMessages,
        positions: [],
        seqs: [],
      })
    }
    groups.push({ part, tokens, blocks: blocks.sort((a, b) => b.tokens - a.tokens) })
  }
  const largest = all.sort((a, b) => b.tokens - a.tokens).slice(0, Math.max(0, options.largest ?? 5))
  return {
    groups,
    budget: meta.budget.input,
    scale: Math.max(meta.budget.input, meta.tokens.total),
    used: meta.tokens.total,
    reserved: meta.budget.reserveOutputTokens,
    overflow: meta.tokens.total > meta.budget.input,
    largest,
  }
}
