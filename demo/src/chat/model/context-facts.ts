import type { ProjectedMessage, ProjectionResult } from '@threadlens/core'

/** A tool message as the model sees it. */
export type ToolMessage = Extract<ProjectedMessage, { role: 'tool' }>

/** What the offline model reads from its context: it knows only what the projection gives it. */
export interface ContextFacts {
  /** The user's latest message (history or pending), or `''`. */
  readonly latestUser: string
  /** Messages after the latest user message: this request's tool calls and results so far. */
  readonly afterLatestUser: readonly ProjectedMessage[]
  readonly messageCount: number
  readonly historyCount: number
  readonly userTurns: number
  readonly notes: readonly { readonly key: string; readonly text: string }[]
  readonly summary: { readonly fromSeq: number; readonly toSeq: number } | undefined
  /** Entries left out by the policy (budget, windows, masking), not counting those a summary covers. */
  readonly droppedEntries: number
  /** Older tool results still visible raw (not masked), newest last. */
  readonly earlierToolResults: readonly ToolMessage[]
  readonly maskedToolResults: number
  readonly tokens: number
  readonly budget: number
}

/** The `world` entries of a memory segment as core's `renderMemory` writes it: `[world] (map, rev N)`, then `key: <JSON>` lines. */
function worldNotes(memoryText: string): { key: string; text: string }[] {
  const block = /(?:^|\n)\[world\] \(map, rev \d+\)\n([\s\S]*?)(?:\n\n|$)/.exec(memoryText)?.[1]
  if (block === undefined) return []
  const notes: { key: string; text: string }[] = []
  for (const line of block.split('\n')) {
    const match = /^([^:]+): (.*)$/.exec(line)
    if (match === null) continue
    let text = match[2] as string
    try {
      const value: unknown = JSON.parse(text)
      text = typeof value === 'string' ? value : JSON.stringify(value)
    } catch {
      // Shown as it is.
    }
    notes.push({ key: match[1] as string, text })
  }
  return notes
}

export function contextFacts(projection: ProjectionResult): ContextFacts {
  const { messages, meta } = projection
  let latestUserIndex = -1
  messages.forEach((message, position) => {
    const segment = meta.messages[position]?.segment
    if (message.role === 'user' && (segment === 'history' || segment === 'pending')) latestUserIndex = position
  })
  const latest = messages[latestUserIndex]
  const memoryIndex = meta.messages.findIndex((info) => info.segment === 'memory')
  const memoryText = memoryIndex === -1 ? '' : (messages[memoryIndex]?.content ?? '')
  const notes = worldNotes(memoryText)
  const before = latestUserIndex === -1 ? messages : messages.slice(0, latestUserIndex)
  const toolsBefore = before.filter((message): message is ToolMessage => message.role === 'tool')
  const earlierToolResults = toolsBefore.filter((message) => !message.content.startsWith('[tool result hidden'))
  return {
    latestUser: latest?.content ?? '',
    // This request's own messages: the recall block, sent last, is older history, not a tool's answer.
    afterLatestUser:
      latestUserIndex === -1
        ? []
        : messages.slice(latestUserIndex + 1).filter((_message, offset) => meta.messages[latestUserIndex + 1 + offset]?.segment !== 'recall'),
    messageCount: messages.length,
    historyCount: meta.messages.filter((info) => info.segment === 'history').length,
    userTurns: messages.filter((message, position) => message.role === 'user' && meta.messages[position]?.segment === 'history').length,
    notes,
    summary: meta.summary === undefined ? undefined : { fromSeq: meta.summary.fromSeq, toSeq: meta.summary.toSeq },
    droppedEntries: meta.dropped.filter((range) => range.reason !== 'applied').reduce((total, range) => total + range.toSeq - range.fromSeq + 1, 0),
    earlierToolResults,
    maskedToolResults: toolsBefore.length - earlierToolResults.length,
    tokens: meta.tokens.total,
    budget: meta.budget.input,
  }
}
