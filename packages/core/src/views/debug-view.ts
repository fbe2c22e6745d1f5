import type { ProjectedMessage, ProjectionResult } from '../project/types'

export interface DebugViewOptions {
  /** Characters of each message shown before it is cut with `…`. Default 100. */
  readonly width?: number
}

/** A projection as plain text, for logs, Node scripts and test failures. */
export function debugView(result: ProjectionResult, options: DebugViewOptions = {}): string {
  const width = options.width ?? 100
  const { meta } = result
  const percent = meta.budget.input === 0 ? 0 : (meta.tokens.total / meta.budget.input) * 100
  const lines = [
    `projection · ${meta.counter.id}${meta.counter.exact ? '' : ' (estimate)'} · ${meta.tokens.total} / ${meta.budget.input} tokens (${percent.toFixed(1)}%) · free ${meta.budget.free} · reserved for output ${meta.budget.reserveOutputTokens}`,
    `segments: ${(['system', 'memory', 'summary', 'history', 'pending', 'tools'] as const).map((name) => `${name} ${meta.tokens[name]}`).join(' · ')}`,
  ]
  result.messages.forEach((message, position) => {
    const info = meta.messages[position]
    const where = info === undefined || info.seqs.length === 0 ? '' : ` #${info.seqs.join(',')}`
    const tokens = String(info?.tokens ?? 0).padStart(6)
    lines.push(`[${(info?.segment ?? '').padEnd(7)}] ${tokens}  ${message.role}${where}: ${oneLine(describe(message), width)}`)
  })
  if (meta.dropped.length > 0) {
    lines.push(
      `dropped: ${meta.dropped.map((range) => `${range.fromSeq === range.toSeq ? range.fromSeq : `${range.fromSeq}–${range.toSeq}`} ${range.reason}`).join(' · ')}`,
    )
  }
  if (meta.summary !== undefined) lines.push(`summary #${meta.summary.seq} covers ${meta.summary.fromSeq}–${meta.summary.toSeq}`)
  const flags = [
    meta.truncated ? 'truncated' : '',
    meta.needsSummary ? `needsSummary (${meta.needsSummaryReason ?? ''})` : '',
    meta.overflow ? 'OVERFLOW: the mandatory part alone exceeds the budget' : '',
    meta.unresolvedToolCalls.length > 0 ? `unresolved calls: ${meta.unresolvedToolCalls.map((call) => `${call.name}#${call.seq}`).join(', ')}` : '',
  ].filter((flag) => flag !== '')
  if (flags.length > 0) lines.push(`flags: ${flags.join(' · ')}`)
  return lines.join('\n')
}

function describe(message: ProjectedMessage): string {
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    const calls = message.toolCalls.map((call) => `→ ${call.name}(${JSON.stringify(call.arguments)})`).join(' ')
    return message.content === '' ? calls : `${message.content} ${calls}`
  }
  if (message.role === 'tool') return `${message.name}${message.isError === true ? ' (error)' : ''}: ${message.content}`
  return message.content
}

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}
