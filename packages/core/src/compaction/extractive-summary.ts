// The extractive summarizer's work, loaded on its first summary (see extractive-summarizer.ts).
import type { Entry, ToolCallEntry } from '../entries/entry'
import { toolArgumentsText, toolResultText } from '../entries/entry-text'
import { isCommonCapitalized, midSentenceNames, sentenceEnd, trimToTokens } from './dialogue-text'
import { isDialogue, summarizeDialogue } from './dialogue-summary'
import type { SummarizeInput } from './summarizer'

const decisionWords = /\b(will|decided|decide|chose|choose|booked|book|plan|agreed|let's|should|recommend|going to|confirmed)\b/iu

function firstSentence(text: string, limit: number): string {
  const sentence = (text.trim().split(sentenceEnd)[0] ?? '').trim()
  return sentence.length > limit ? `${sentence.slice(0, limit - 1)}…` : sentence
}

function oneLine(text: string, limit: number): string {
  const line = (text.trim().split('\n')[0] ?? '').trim()
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line
}

/** Capitalized names not at a sentence start (common sentence words left out), most mentioned first. */
function namesIn(texts: readonly string[], limit: number): string[] {
  const counts = new Map<string, number>()
  for (const text of texts) {
    for (const sentence of text.split(sentenceEnd)) {
      for (const name of midSentenceNames(sentence)) if (!isCommonCapitalized(name)) counts.set(name, (counts.get(name) ?? 0) + 1)
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name]) => name)
}

interface Section {
  readonly title: string
  readonly lines: string[]
  /** Share of the token budget this section may take. */
  readonly share: number
  /** Lines that must stay (the task framing). */
  readonly keepFirst: boolean
}

/**
 * Keeps each section's newest lines within its share (and its first line where that is the
 * task framing), then trims further until the exact count fits.
 */
function fit(previous: string | undefined, sections: readonly Section[], input: SummarizeInput): string {
  const count = input.countTokens
  const render = (kept: readonly Section[], earlier: string | undefined): string =>
    [
      ...(earlier === undefined || earlier === '' ? [] : [`Earlier:\n${earlier}`]),
      ...kept
        .filter((section) => section.lines.length > 0)
        .map((section) => `${section.title}:\n${section.lines.map((line) => `- ${line}`).join('\n')}`),
    ].join('\n\n')

  let earlier = previous
  if (earlier !== undefined && count(earlier) > input.maxTokens * 0.4) earlier = trimToTokens(earlier, Math.floor(input.maxTokens * 0.4), count)
  const room = input.maxTokens - (earlier === undefined ? 0 : count(earlier) + 4)
  const kept = sections.map((section) => {
    const allowance = Math.max(0, Math.floor(room * section.share))
    const lines: string[] = []
    let used = count(section.title) + 2
    const first = section.keepFirst ? section.lines[0] : undefined
    if (first !== undefined) used += count(first) + 2
    for (let position = section.lines.length - 1; position >= (first === undefined ? 0 : 1); position--) {
      const line = section.lines[position] as string
      const cost = count(line) + 2
      if (used + cost > allowance) break
      used += cost
      lines.unshift(line)
    }
    if (first !== undefined) lines.unshift(first)
    return { ...section, lines }
  })
  let text = render(kept, earlier)
  // Separators do not add up exactly: trim the longest section until the real count fits.
  while (count(text) > input.maxTokens) {
    const longest = [...kept].sort((a, b) => b.lines.length - a.lines.length)[0]
    if (longest === undefined || longest.lines.length === 0) {
      return trimToTokens(text, input.maxTokens, count)
    }
    longest.lines.splice(longest.keepFirst && longest.lines.length > 1 ? 1 : 0, 1)
    text = render(kept, earlier)
  }
  return text
}

/** What `extractiveSummarizer()` writes for `input`. */
export function summarizeExtractive(input: SummarizeInput): string {
  if (isDialogue(input.entries, input.previousSummary)) {
    const text = trimToTokens(summarizeDialogue(input), input.maxTokens, input.countTokens)
    if (text.trim() !== '') return text
  }
  const goals: string[] = []
  const decisions: string[] = []
  const tools: string[] = []
  const texts: string[] = []
  const calls = new Map<string, ToolCallEntry>()
  for (const entry of input.entries as readonly Entry[]) {
    if (entry.kind === 'message') {
      const content = entry.payload.content
      if (content.trim() === '') continue
      texts.push(content)
      if (entry.payload.role === 'user') goals.push(firstSentence(content, 200))
      else if (entry.payload.role === 'assistant') {
        const sentences = content.split(sentenceEnd).filter((sentence) => decisionWords.test(sentence))
        decisions.push(sentences.length === 0 ? firstSentence(content, 200) : oneLine(sentences.slice(0, 2).join(' '), 240))
      }
    } else if (entry.kind === 'tool_call') {
      calls.set(entry.refs.toolCallId as string, entry)
    } else if (entry.kind === 'tool_result') {
      const call = calls.get(entry.refs.toolCallId as string)
      const argumentsText = call === undefined ? '' : oneLine(toolArgumentsText(call.payload), 80)
      const outcome =
        entry.payload.error === undefined ? `→ ${oneLine(toolResultText(entry.payload), 120)}` : `failed: ${oneLine(entry.payload.error, 120)}`
      tools.push(`${entry.payload.name}(${argumentsText}) ${outcome}`)
      texts.push(toolResultText(entry.payload))
    }
  }
  const names = namesIn(texts, 12)
  const sections: Section[] = [
    { title: 'User goals', lines: goals, share: 0.35, keepFirst: true },
    { title: 'Decisions and answers', lines: decisions, share: 0.3, keepFirst: false },
    { title: 'Tool results', lines: tools, share: 0.25, keepFirst: false },
    { title: 'Names', lines: names.length === 0 ? [] : [names.join(', ')], share: 0.1, keepFirst: false },
  ]
  const text = fit(input.previousSummary, sections, input)
  // Entries with no text still need covering: say so rather than return nothing.
  return text.trim() === '' ? `${input.entries.length} earlier entries with no text worth keeping.` : text
}
