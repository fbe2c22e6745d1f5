import type { Entry, MessageEntry } from '../entries/entry'
import {
  annotateRelativeDate,
  formatDate,
  isSpeaker,
  midSentenceNames,
  parseDate,
  sentenceEnd,
  sentenceScore,
  withoutInterjection,
} from './dialogue-text'
import type { SummarizeInput } from './summarizer'

// The dialogue side of the extractive summarizer: for chats between people (`Name: text` messages,
// session markers), it keeps the sentences that state facts, attributed and grouped by session,
// highest-scoring first until the budget is full, whatever session they come from.

const speakerPrefix = /^([\p{Lu}][\p{L}\p{M}.'’-]*(?: [\p{Lu}][\p{L}\p{M}.'’-]*){0,2}): +(?=\S)/u
const sessionMarker = /\bsession\b|\bday \d+\b/iu
const headerLine = /^(?!- )(?!Speakers: )(?!Names: )(.{1,80}):$/u
const factLine = /^- ([^:\n]{1,40}): (.+)$/u

interface Fact {
  readonly session: string
  readonly speaker: string
  /** Orders facts within a session: the turn it came from, then its sentence. */
  readonly turn: number
  readonly sentence: number
  readonly text: string
  readonly score: number
}

interface Session {
  readonly label: string
  readonly date: Date | undefined
}

function speakerOf(entry: MessageEntry): { speaker: string | undefined; text: string } {
  const match = speakerPrefix.exec(entry.payload.content)
  if (match !== null) return { speaker: match[1] as string, text: entry.payload.content.slice(match[0].length) }
  return { speaker: entry.payload.name, text: entry.payload.content }
}

/**
 * A dialogue: most user/assistant messages name their speaker (`Caroline: …`, or `name`), and
 * some speaker does so more than once. Tool chats, whose messages name no one, are not.
 */
export function isDialogue(entries: readonly Entry[], previousSummary: string | undefined): boolean {
  if (previousSummary !== undefined && /^Speakers: /mu.test(previousSummary) && entries.every((entry) => entry.kind === 'message')) return true
  const messages = entries.filter(
    (entry): entry is MessageEntry => entry.kind === 'message' && entry.payload.role !== 'system' && entry.payload.content.trim() !== '',
  )
  const counts = new Map<string, number>()
  for (const message of messages) {
    const { speaker } = speakerOf(message)
    if (speaker !== undefined) counts.set(speaker, (counts.get(speaker) ?? 0) + 1)
  }
  const named = [...counts.values()].reduce((sum, count) => sum + count, 0)
  return messages.length >= 2 && named >= messages.length * 0.6 && [...counts.values()].some((count) => count >= 2)
}

/** A system message that opens a session: it says "session" or carries a date. */
function sessionOf(entry: MessageEntry): Session | undefined {
  const content = entry.payload.content.trim()
  const date = parseDate(content)
  if (content.length > 200 || (date === undefined && !sessionMarker.test(content))) return undefined
  const name = /\b(session|day) (\d+)\b/iu.exec(content)
  const parts = [
    name === null ? undefined : `${(name[1] as string)[0]?.toUpperCase()}${(name[1] as string).slice(1).toLowerCase()} ${name[2]}`,
    date === undefined ? undefined : formatDate(date),
  ]
  const label = parts.every((part) => part === undefined) ? content.replace(/:$/u, '') : parts.filter((part) => part !== undefined).join(', ')
  return { label, date }
}

/** The candidate facts of `entries`, every sentence scored; sessions from markers, else each entry's day. */
function factsOf(entries: readonly Entry[], start: Session | undefined, speakers: Set<string>, firstTurn: number): Fact[] {
  const messages = entries.filter((entry): entry is MessageEntry => entry.kind === 'message')
  for (const message of messages) {
    const { speaker } = speakerOf(message)
    if (speaker !== undefined) speakers.add(speaker)
  }
  const facts: Fact[] = []
  let session = start
  let turn = firstTurn
  for (const entry of messages) {
    if (entry.payload.role === 'system') {
      session = sessionOf(entry) ?? session
      continue
    }
    const { speaker = entry.payload.role === 'user' ? 'User' : 'Assistant', text } = speakerOf(entry)
    const current = session ?? { label: formatDate(new Date(entry.createdAt)), date: new Date(entry.createdAt) }
    turn += 1
    text.split(sentenceEnd).forEach((raw, index) => {
      const sentence = withoutInterjection(raw.trim().replace(/\s+/gu, ' '))
      const score = sentenceScore(sentence, speakers)
      if (score > 0) facts.push({ session: current.label, speaker, turn, sentence: index, text: annotateRelativeDate(sentence, current.date), score })
    })
  }
  return facts
}

interface Previous {
  readonly facts: Fact[]
  readonly speakers: string[]
  readonly lastSession: Session | undefined
  /** Lines of the previous summary that are not facts of this format (a quoted task framing, say). */
  readonly other: string
}

/** Reads a summary this summarizer wrote back into facts, so old and new facts compete for the budget alike. */
function parsePrevious(text: string | undefined, speakers: Set<string>): Previous {
  const previous: Previous = { facts: [], speakers: [], lastSession: undefined, other: '' }
  if (text === undefined) return previous
  const speakerLine = /^Speakers: (.+)$/mu.exec(text)
  const named = speakerLine === null ? [] : (speakerLine[1] as string).split(', ')
  for (const name of named) speakers.add(name)
  const other: string[] = []
  let session: string | undefined
  let turn = 0
  for (const line of text.split('\n')) {
    const header = headerLine.exec(line)
    const fact = factLine.exec(line)
    if (header !== null) session = header[1] as string
    else if (fact !== null && session !== undefined) {
      turn += 1
      const [, speaker, body] = fact as unknown as [string, string, string]
      body.split(sentenceEnd).forEach((sentence, index) => {
        previous.facts.push({ session: session as string, speaker, turn, sentence: index, text: sentence, score: sentenceScore(sentence, speakers) })
      })
    } else if (!/^(Speakers|Names): /u.test(line)) other.push(line)
  }
  const lastSession = session === undefined ? undefined : { label: session, date: parseDate(session) }
  return { facts: previous.facts, speakers: named, lastSession, other: session === undefined ? text : other.join('\n').trim() }
}

/** Capitalized names said mid-sentence in the kept facts, most mentioned first, speakers left out. */
function namesOf(facts: readonly Fact[], speakers: ReadonlySet<string>, limit: number): string[] {
  const counts = new Map<string, number>()
  for (const fact of facts)
    for (const name of midSentenceNames(fact.text)) if (!isSpeaker(name, speakers)) counts.set(name, (counts.get(name) ?? 0) + 1)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name]) => name)
}

/** Facts grouped by session (sessions in order of first appearance), one line per turn. */
function render(head: readonly string[], facts: readonly Fact[], order: ReadonlyMap<string, number>): string {
  const sorted = [...facts].sort((a, b) => (order.get(a.session) ?? 0) - (order.get(b.session) ?? 0) || a.turn - b.turn || a.sentence - b.sentence)
  const lines = [...head]
  let session: string | undefined
  let turn = -1
  for (const fact of sorted) {
    if (fact.session !== session) {
      session = fact.session
      turn = -1
      lines.push(`${session}:`)
    }
    if (fact.turn === turn) lines[lines.length - 1] += ` ${fact.text}`
    else lines.push(`- ${fact.speaker}: ${fact.text}`)
    turn = fact.turn
  }
  return lines.join('\n')
}

/**
 * The dialogue summary: the highest-scoring facts (score per token, so short dense sentences
 * first) until `maxTokens` is reached, shown in conversation order under their session.
 */
export function summarizeDialogue(input: SummarizeInput): string {
  const count = input.countTokens
  const speakers = new Set<string>()
  const previous = parsePrevious(input.previousSummary, speakers)
  const fresh = factsOf(input.entries, previous.lastSession, speakers, previous.facts.length + 1)
  const seen = new Set<string>()
  const candidates = [...previous.facts, ...fresh].filter((fact) => {
    const key = `${fact.speaker}\n${fact.text.toLowerCase()}`
    return !seen.has(key) && (seen.add(key), true)
  })
  const order = new Map<string, number>()
  for (const fact of candidates) if (!order.has(fact.session)) order.set(fact.session, order.size)
  const speakerList = [...new Set([...previous.speakers, ...speakers])]
  const head = speakerList.length === 0 ? [] : [`Speakers: ${speakerList.join(', ')}`]
  let other = previous.other
  if (other !== '' && count(other) > input.maxTokens * 0.15) other = ''
  if (other !== '') head.unshift(`Earlier:\n${other}\n`)

  const ranked = candidates
    .map((fact) => ({ fact, cost: count(fact.text) + 1 }))
    .sort((a, b) => b.fact.score / (b.cost + 6) - a.fact.score / (a.cost + 6) || a.fact.turn - b.fact.turn || a.fact.sentence - b.fact.sentence)
  const namesRoom = namesRoomOf(input.maxTokens)
  const kept: Fact[] = []
  // Estimates add up to a little more than the real count: a second and third pass fill what is left.
  for (let pass = 0; pass < 3; pass++) {
    const before = kept.length
    const used = count(render(head, kept, order)) + namesRoom + 2
    const shown = new Set(kept.flatMap((fact) => [fact.session, `${fact.session}\n${fact.turn}`]))
    addFacts(ranked, kept, shown, input.maxTokens - used, count)
    if (kept.length === before) break
  }
  return fitDialogue(head, kept, order, speakers, input)
}

/** Adds the best facts not yet kept while `room` lasts; a new session costs its header, a new turn its speaker. */
function addFacts(
  ranked: readonly { fact: Fact; cost: number }[],
  kept: Fact[],
  shown: Set<string>,
  room: number,
  count: (text: string) => number,
): void {
  const already = new Set(kept)
  let left = room
  for (const { fact, cost } of ranked) {
    if (already.has(fact)) continue
    const turnKey = `${fact.session}\n${fact.turn}`
    const extra = cost + (shown.has(fact.session) ? 0 : count(fact.session) + 2) + (shown.has(turnKey) ? 0 : count(fact.speaker) + 2)
    if (extra > left) continue
    left -= extra
    shown.add(fact.session).add(turnKey)
    kept.push(fact)
  }
}

/** Adds the names line, then drops the lowest-scoring facts until the exact count fits. */
function fitDialogue(head: string[], kept: Fact[], order: ReadonlyMap<string, number>, speakers: ReadonlySet<string>, input: SummarizeInput): string {
  const names = namesOf(kept, speakers, 20)
  while (names.length > 0 && input.countTokens(`Names: ${names.join(', ')}`) > namesRoomOf(input.maxTokens)) names.pop()
  const fullHead = names.length === 0 ? head : [...head, `Names: ${names.join(', ')}`]
  const byScore = [...kept].sort((a, b) => a.score - b.score || b.turn - a.turn)
  let text = render(fullHead, kept, order)
  while (input.countTokens(text) > input.maxTokens && byScore.length > 0) {
    const lowest = byScore.shift() as Fact
    kept.splice(kept.indexOf(lowest), 1)
    text = render(fullHead, kept, order)
  }
  return text
}

/** Room for the names line: a little of the budget, never much. */
function namesRoomOf(maxTokens: number): number {
  return Math.min(80, Math.floor(maxTokens * 0.06))
}
