import { beforeAll, describe, expect, it } from 'vitest'
import type { Entry } from '../entries/entry'
import { createThread } from '../entries/thread'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { isDialogue } from './dialogue-summary'
import { extractiveSummarizer } from './extractive-summarizer'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

type Session = readonly [marker: string, turns: readonly string[]]

/** A two-person chat as an app would store it: a system marker per session, then `Name: text` turns. */
function dialogue(sessions: readonly Session[]): Entry[] {
  const thread = createThread({ id: 'chat' })
  for (const [marker, turns] of sessions) {
    thread.append({ kind: 'message', payload: { role: 'system', content: marker } })
    for (const turn of turns)
      thread.append({ kind: 'message', payload: { role: turn.startsWith('Caroline:') ? 'user' : 'assistant', content: turn } })
  }
  return [...thread.entries]
}

const first: Session = [
  'Session 1 · 1:56 pm on 8 May, 2023',
  [
    'Caroline: Hey Mel! Good to see you! How have you been?',
    "Melanie: Hey Caroline! Good to see you! I'm swamped with the kids & work. What's up with you?",
    'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.',
    "Melanie: Wow, that's cool! Yeah, I painted that lake sunrise last year in Lisbon.",
    'Caroline: Thanks!',
    "Melanie: That's awesome!",
    "Caroline: I'm planning to study counseling at Riverside College next month.",
  ],
]
const second: Session = [
  'Session 2 · 1:14 pm on 25 May, 2023',
  [
    'Melanie: Hi Caroline! Congrats!',
    'Melanie: I ran a charity race for mental health last Saturday with my daughter Maya.',
    'Caroline: Awesome! I adopted two cats, Luna and Oliver, in April.',
  ],
]

function input(entries: readonly Entry[], maxTokens: number, previousSummary?: string) {
  return { previousSummary, entries, maxTokens, countTokens: (text: string) => counter.count(text), signal: undefined }
}

describe('extractiveSummarizer on a dialogue', () => {
  it('drops greetings, thanks and small talk, and keeps facts under their session and date', async () => {
    const text = await extractiveSummarizer().summarize(input(dialogue([first, second]), 400))
    for (const chatter of ['Hey Mel', 'Good to see you', 'Thanks!', "That's awesome", 'Congrats', 'How have you been'])
      expect(text).not.toContain(chatter)
    expect(text).toContain('Session 1, 8 May 2023:\n')
    expect(text).toContain('- Caroline: I went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.')
    expect(text).toContain('Riverside College next month (June 2023)')
    expect(text).toContain('Lisbon')
    expect(text).toMatch(
      /Session 2, 25 May 2023:\n(- .*\n)*- Melanie: I ran a charity race for mental health last Saturday \(20 May 2023\) with my daughter Maya\./u,
    )
    expect(text).toContain('Luna and Oliver, in April')
  })

  it('lists the speakers apart, and only real names as names', async () => {
    const text = await extractiveSummarizer().summarize(input(dialogue([first, second]), 400))
    expect(text).toMatch(/^Speakers: Caroline, Melanie$/mu)
    const names = (/^Names: (.*)$/mu.exec(text)?.[1] ?? '').split(', ')
    expect(names).toEqual(expect.arrayContaining(['LGBTQ', 'Lisbon', 'Riverside College', 'Maya', 'Luna', 'Oliver']))
    for (const word of ['Wow', 'Yeah', "I'm", "That's", 'Hey', 'Thanks', 'Congrats', 'Awesome', 'Caroline', 'Melanie', 'Mel', 'April', 'Saturday']) {
      expect(names).not.toContain(word)
    }
  })

  it('stays within the budget it is given, fills it, and says the same twice', async () => {
    const sessions: Session[] = Array.from({ length: 12 }, (_, index) => [
      `Session ${index + 1} · 10:00 am on ${index + 1} March, 2024`,
      [
        `Caroline: Hey Mel, so good to talk again!`,
        `Caroline: I visited Porto with my brother Tomás on day ${index + 1} and we booked ${index + 2} museum tours there.`,
        `Melanie: I started pottery classes at the Hill Street studio ${index + 3} weeks ago, and I'm planning a show in Oslo.`,
        'Melanie: Wow, amazing!',
      ],
    ])
    const entries = dialogue(sessions)
    for (const maxTokens of [40, 120, 300, 700]) {
      const text = await extractiveSummarizer().summarize(input(entries, maxTokens))
      expect(counter.count(text)).toBeLessThanOrEqual(maxTokens)
      if (maxTokens >= 120) expect(counter.count(text)).toBeGreaterThan(maxTokens * 0.8)
      expect(await extractiveSummarizer().summarize(input(entries, maxTokens))).toBe(text)
    }
  })

  it('keeps a strong fact of the first session over chatter of later ones', async () => {
    const later: Session[] = Array.from({ length: 10 }, (_, index) => [
      `Session ${index + 2} · 9:00 am on ${index + 1} June, 2023`,
      ['Caroline: That sounds so nice, I love that for you.', 'Melanie: Yes, it was a good week for sure, really fun stuff.'],
    ])
    const text = await extractiveSummarizer().summarize(input(dialogue([first, ...later]), 120))
    expect(text).toContain('LGBTQ support group yesterday (7 May 2023)')
    expect(text).not.toContain('good week')
  })

  it('continues its previous summary: earlier facts compete with new ones and keep their session', async () => {
    const summarizer = extractiveSummarizer()
    const earlier = await summarizer.summarize(input(dialogue([first]), 250))
    const text = await summarizer.summarize(input(dialogue([second]), 250, earlier))
    expect(counter.count(text)).toBeLessThanOrEqual(250)
    expect(text).toMatch(/Session 1, 8 May 2023:\n(- .*\n)*- Caroline: I went to a LGBTQ support group yesterday \(7 May 2023\)/u)
    expect(text).toContain('Session 2, 25 May 2023:')
    expect(text).toContain('last Saturday (20 May 2023)')
    expect(text.match(/^Speakers: /gmu)).toHaveLength(1)
    expect(text.indexOf('Session 1')).toBeLessThan(text.indexOf('Session 2'))
    // The continuation is stable: the same facts survive a second round with nothing new.
    expect(await summarizer.summarize(input(dialogue([]), 250, text))).toBe(text)
  })

  it('dates sessions by the entries when there are no markers', async () => {
    const thread = createThread({ id: 'dated' })
    const createdAt = Date.UTC(2024, 2, 15, 12)
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Ana: I moved to Valencia yesterday with my partner Joel.' }, createdAt })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Ben: Nice! I bought a bike in Madrid last Friday.' }, createdAt })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Ana: Thanks, see you!' }, createdAt })
    const text = await extractiveSummarizer().summarize(input(thread.entries, 200))
    expect(text).toContain('15 March 2024:\n- Ana: I moved to Valencia yesterday (14 March 2024) with my partner Joel.')
    expect(text).toContain('- Ben: I bought a bike in Madrid last Friday (8 March 2024).')
  })

  it('tells a dialogue from a task chat', () => {
    expect(isDialogue(dialogue([first]), undefined)).toBe(true)
    const task = createThread()
    task.append({ kind: 'message', payload: { role: 'user', content: 'Plan a trip to Bergen. Note: two people.' } })
    task.append({ kind: 'message', payload: { role: 'assistant', content: 'Day 1: the Fløyen funicular.' } })
    task.append({ kind: 'message', payload: { role: 'user', content: 'Note: we arrive late.' } })
    task.append({ kind: 'message', payload: { role: 'assistant', content: 'Sure, an evening walk on Bryggen then.' } })
    expect(isDialogue(task.entries, undefined)).toBe(false)
  })
})
