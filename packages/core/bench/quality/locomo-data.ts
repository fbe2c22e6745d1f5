import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createThread, type EntryInput, type Thread } from '../../src/index'

// LoCoMo conversations (fixtures/locomo, see its NOTICE.md) turned into threadlens threads: one
// message per dialogue turn, a system message at each session start carrying its date, and the
// questions with the turns that hold their evidence.

export const CONVERSATIONS = ['26', '30', '41'] as const

export const CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' } as const
export type Category = keyof typeof CATEGORIES

interface Turn {
  readonly speaker: string
  readonly dia_id: string
  readonly text: string
  readonly blip_caption?: string
}

interface RawQuestion {
  readonly question: string
  readonly answer?: string | number
  readonly evidence: readonly string[]
  readonly category: number
}

export interface Question {
  readonly question: string
  readonly answer: string
  /** Dialogue ids the answer rests on (malformed ids split, unknown ones left out). */
  readonly evidence: readonly string[]
  readonly category: Category
}

export interface Conversation {
  readonly name: string
  /** The thread inputs in order, each with the dialogue id of its turn (session headers have none). */
  readonly inputs: readonly { readonly input: EntryInput; readonly createdAt: number; readonly diaId: string | undefined }[]
  readonly questions: readonly Question[]
  /** Evidence ids the dataset names that no turn carries (left out of the evidence). */
  readonly unknownEvidence: number
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** "1:56 pm on 8 May, 2023" as UTC milliseconds. */
export function parseSessionTime(text: string): number {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim())
  if (match === null) throw new Error(`[threadlens] unexpected LoCoMo date "${text}"`)
  const [, hour, minute, half, day, month, year] = match as unknown as [string, string, string, string, string, string, string]
  const monthIndex = MONTHS.indexOf(month.toLowerCase())
  if (monthIndex < 0) throw new Error(`[threadlens] unexpected month in "${text}"`)
  const hours = (Number(hour) % 12) + (half.toLowerCase() === 'pm' ? 12 : 0)
  return Date.UTC(Number(year), monthIndex, Number(day), hours, Number(minute))
}

export function loadConversation(name: string): Conversation {
  const path = fileURLToPath(new URL(`../fixtures/locomo/${name}.json`, import.meta.url))
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  const speakerA = raw.speaker_a as string
  const inputs: { input: EntryInput; createdAt: number; diaId: string | undefined }[] = []
  for (let session = 1; Array.isArray(raw[`session_${session}`]); session++) {
    const turns = raw[`session_${session}`] as readonly Turn[]
    const written = raw[`session_${session}_date_time`] as string
    const start = parseSessionTime(written)
    if (turns.length === 0) continue
    inputs.push({
      input: { kind: 'message', payload: { role: 'system', content: `Session ${session} · ${written}` } },
      createdAt: start,
      diaId: undefined,
    })
    turns.forEach((turn, index) => {
      const caption = turn.blip_caption === undefined ? '' : ` [shares ${turn.blip_caption}]`
      const role = turn.speaker === speakerA ? 'user' : 'assistant'
      inputs.push({
        input: { kind: 'message', payload: { role, content: `${turn.speaker}: ${turn.text}${caption}` } },
        createdAt: start + index * 1000,
        diaId: turn.dia_id,
      })
    })
  }
  const known = new Set(inputs.flatMap(({ diaId }) => (diaId === undefined ? [] : [diaId])))
  let unknownEvidence = 0
  const questions: Question[] = []
  for (const question of raw.qa as readonly RawQuestion[]) {
    // Category 5 (adversarial) has no answer: the right reply is that the conversation does not say.
    if (!(question.category in CATEGORIES) || question.answer === undefined) continue
    // A few evidence fields hold several ids in one string ("D8:6; D9:17").
    const ids = question.evidence
      .flatMap((id) => id.split(/[;,]/))
      .map((id) => id.trim())
      .filter((id) => id !== '')
    unknownEvidence += ids.filter((id) => !known.has(id)).length
    questions.push({
      question: question.question,
      answer: String(question.answer),
      evidence: ids.filter((id) => known.has(id)),
      category: question.category as Category,
    })
  }
  return { name, inputs, questions, unknownEvidence }
}

/** A thread with a deterministic clock and ids: each entry's createdAt is its turn's time. */
export function emptyThread(id: string): { thread: Thread; setTime: (time: number) => void } {
  let time = 0
  let next = 0
  const thread = createThread({ id, now: () => time, createId: () => `${id}-${next++}` })
  return { thread, setTime: (value) => void (time = value) }
}

/** The whole conversation as a thread, and which dialogue id each seq holds. */
export function conversationThread(
  conversation: Conversation,
  id = `locomo-${conversation.name}`,
): { thread: Thread; diaIdBySeq: Map<number, string> } {
  const { thread, setTime } = emptyThread(id)
  const diaIdBySeq = new Map<number, string>()
  for (const { input, createdAt, diaId } of conversation.inputs) {
    setTime(createdAt)
    const entry = thread.append(input)
    if (diaId !== undefined) diaIdBySeq.set(entry.seq, diaId)
  }
  return { thread, diaIdBySeq }
}
