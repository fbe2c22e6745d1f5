import type { ContextFacts, ToolMessage } from './context-facts'

function parsed(content: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(content)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function quote(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** One sentence about one tool result, from its text as the model saw it. */
export function describeResult(message: ToolMessage): string {
  if (message.isError === true) return `The ${message.name} tool failed: ${quote(message.content.replace(/^Error: /, ''), 200)}.`
  if (message.content.startsWith('[tool result hidden')) return `The ${message.name} result is masked in my context now.`
  const value = parsed(message.content)
  if (message.name === 'calculator' && value !== undefined) return `${String(value['expression'])} = ${String(value['result'])}.`
  if (message.name === 'convert_units' && value !== undefined)
    return `${String(value['value'])} ${String(value['from'])} is ${String(value['result'])} ${String(value['to'])}.`
  if (message.name === 'save_note' && value !== undefined) {
    return `Saved to memory as "${String(value['saved'])}" (${String(value['notes'])} note${value['notes'] === 1 ? '' : 's'} now): I will see it in every later call, in any chat.`
  }
  if (message.name === 'read_document') {
    const lines = message.content.split('\n')
    const title = (lines[0] ?? '').replace(/^#\s*/, '')
    const marker = lines.find((line) => /^\[… \d+ lines? \(\d+ bytes\) truncated …\]$/.test(line))
    const isFact = (line: string) => /^\d{4} [a-z ]+: /.test(line)
    const firstFact = lines.find(isFact)
    const lastFact = [...lines].reverse().find(isFact)
    const cut =
      marker === undefined
        ? 'all of it reached me'
        : `the output was cut before it entered the thread (${marker.slice(2, -2).trim()}: it kept head and tail)`
    return `I read "${quote(title, 120)}": ${lines.length} lines reached me, ${cut}. It opens with "${quote(firstFact ?? '', 100)}" and ends with "${quote(lastFact ?? '', 100)}".`
  }
  return `${message.name} returned ${quote(message.content, 160)}.`
}

/** The answer after this request's tool results are in the context. */
export function answerFromResults(facts: ContextFacts): string {
  const results = facts.afterLatestUser.filter((message): message is ToolMessage => message.role === 'tool')
  if (results.length === 0)
    return 'I asked for a tool, but its result is not in my context (the policy left it out). Try a longer-context preset and ask again.'
  return results.map(describeResult).join(' ')
}

export function answerRecall(facts: ContextFacts): string {
  if (facts.notes.length === 0) return 'My memory is empty. Say "remember that …" and I will save a note that every later call sees.'
  return `From my memory segment: ${facts.notes.map((note) => `${note.key}: ${note.text}`).join('; ')}.`
}

/** A friendly reply that says what the model can see. */
export function answerChat(facts: ContextFacts): string {
  const parts: string[] = []
  const text = facts.latestUser.trim()
  if (/^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(text)) parts.push('Hello!')
  else parts.push(`You said: "${quote(text)}".`)
  const seen = [`${facts.messageCount} messages (${facts.historyCount} from our history, ${facts.userTurns} of them yours)`]
  if (facts.summary !== undefined) seen.push(`a summary of entries #${facts.summary.fromSeq}–#${facts.summary.toSeq}`)
  if (facts.notes.length > 0) seen.push(`${facts.notes.length} note${facts.notes.length === 1 ? '' : 's'} from memory`)
  parts.push(`In my context I see ${seen.join(', ')}: ${facts.tokens.toLocaleString('en-US')} of ${facts.budget.toLocaleString('en-US')} tokens.`)
  if (facts.droppedEntries > 0) parts.push(`${facts.droppedEntries} older entries are outside it.`)
  const lastTool = facts.earlierToolResults.at(-1)
  if (lastTool !== undefined) parts.push(`The latest tool result I can see: ${describeResult(lastTool)}`)
  else if (facts.maskedToolResults > 0) parts.push(`${facts.maskedToolResults} earlier tool results are masked to placeholders.`)
  if (facts.userTurns <= 1)
    parts.push('Try "what is 17% of 2,340", "convert 5 km to miles", "remember that my flight leaves at 9:40" or "read the quarterly report".')
  return parts.join(' ')
}
