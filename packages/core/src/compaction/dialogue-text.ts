// Sentence-level text analysis for the extractive summarizer: which capitalized words are names,
// when a sentence was said (dates, relative dates), and how much a sentence says (its score).
// Generic English heuristics only: nothing here is tuned to one conversation or data set.

export const sentenceEnd = /(?<=[.!?。！？])\s+|\n+/u
const capitalized = /\p{Lu}[\p{L}\p{M}\p{N}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}\p{N}'’-]*)*/gu

/** Capitalized words that are common sentence words, never names. */
const commonCapitalized = new Set(
  (
    "I I'm I'd I've I'll Im Ive A An The And But Or Nor If It It's Its This That That's These Those We We're We've You You're You've " +
    "He She They They're There There's Here Here's What What's How How's Why When Where Which Who Whose Can Could Would Should " +
    'Will Shall May Might Must Do Does Did Done Is Are Was Were Be Been Am Have Has Had Not No Yes Yeah Yep Nope Ok OK Okay Sure ' +
    'Please Thanks Thank Thx Hey Hi Hello Bye Goodbye Wow Whoa Oh Ooh Aw Aww Ah Yay Haha Lol Omg Hmm Um Uh Congrats Congratulations ' +
    'Awesome Cool Great Nice Amazing Wonderful Fantastic Good Glad Sorry Welcome Well So Also Then Now Just Really Totally Absolutely ' +
    "Let Let's Anyway Actually Maybe Of Course Sounds Love Agreed Right True Exactly Definitely Error Note Btw All Any Some Every " +
    'My Our Your His Her Their Me Us Him Them One Two Three First Next Last Today Tomorrow Yesterday Tonight Dear Happy Thankfully ' +
    'Hopefully Honestly Luckily Unfortunately Speaking Talking Keep Take See Look Check Go Have Make Give Tell Try Remember ' +
    // Days and months are dates, not names.
    'January February March April June July August September October November December Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun'
  ).split(' '),
)

export function isCommonCapitalized(word: string): boolean {
  return commonCapitalized.has(word) || commonCapitalized.has(word.replace(/[’']s$/u, ''))
}

/** Capitalized words and phrases not at a sentence start and not common words, in order of appearance. */
export function midSentenceNames(sentence: string): string[] {
  const names: string[] = []
  const trimmed = sentence.trimStart()
  for (const match of trimmed.matchAll(capitalized)) {
    // A capital at a sentence start, or after quotes and dashes opening one, says nothing.
    const opening = match.index === 0 || /[:;"“(—–-]\s*$/u.test(trimmed.slice(0, match.index))
    const words = match[0].split(/\s+/).map((word) => word.replace(/[’']s$/u, '').replace(/['’-]+$/u, ''))
    const kept = (opening ? words.slice(1) : words).filter((word) => word.length > 1 && !isCommonCapitalized(word))
    if (kept.length > 0) names.push(kept.join(' '))
  }
  return names
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const monthPattern =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
const dayMonthYear = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${monthPattern}\\.?,?\\s+(\\d{4})\\b`, 'iu')
const monthDayYear = new RegExp(`\\b${monthPattern}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'iu')
const isoDate = /\b(\d{4})-(\d{2})-(\d{2})\b/u
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

function monthIndex(name: string): number {
  return months.findIndex((month) => month.toLowerCase().startsWith(name.slice(0, 3).toLowerCase()))
}

/** The first calendar date written in `text` (`9 June, 2023`, `June 9, 2023`, `2023-06-09`), as UTC midnight. */
export function parseDate(text: string): Date | undefined {
  let match = dayMonthYear.exec(text)
  if (match !== null) return new Date(Date.UTC(Number(match[3]), monthIndex(match[2] as string), Number(match[1])))
  match = monthDayYear.exec(text)
  if (match !== null) return new Date(Date.UTC(Number(match[3]), monthIndex(match[1] as string), Number(match[2])))
  match = isoDate.exec(text)
  if (match !== null) return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return undefined
}

export function formatDate(date: Date): string {
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

const day = 86_400_000
const relativeDay =
  /\b(yesterday|tomorrow|(?:last|this past|next|this coming) (?:sunday|monday|tuesday|wednesday|thursday|friday|saturday)|(?:last|next) (?:month|year))\b/iu

/** The date a relative expression said on `said` means, when it is exact: "yesterday", "last Friday", "next month". */
function resolveRelative(phrase: string, said: Date): string | undefined {
  const words = phrase.toLowerCase().split(' ')
  const last = words[words.length - 1] as string
  const back = words[0] === 'last' || (words[0] === 'this' && words[1] === 'past')
  if (last === 'yesterday') return formatDate(new Date(said.getTime() - day))
  if (last === 'tomorrow') return formatDate(new Date(said.getTime() + day))
  if (last === 'year') return String(said.getUTCFullYear() + (back ? -1 : 1))
  if (last === 'month') {
    const month = new Date(Date.UTC(said.getUTCFullYear(), said.getUTCMonth() + (back ? -1 : 1), 1))
    return `${months[month.getUTCMonth()]} ${month.getUTCFullYear()}`
  }
  const target = weekdays.findIndex((name) => name.toLowerCase() === last)
  const offset = back ? (said.getUTCDay() - target + 7) % 7 || 7 : (target - said.getUTCDay() + 7) % 7 || 7
  return formatDate(new Date(said.getTime() + (back ? -offset : offset) * day))
}

/** `sentence` with the first exact relative date followed by what it means: "yesterday (7 May 2023)". */
export function annotateRelativeDate(sentence: string, said: Date | undefined): string {
  if (said === undefined) return sentence
  const match = relativeDay.exec(sentence)
  if (match === null) return sentence
  const resolved = resolveRelative(match[0], said)
  if (resolved === undefined || sentence.includes(resolved)) return sentence
  const end = match.index + match[0].length
  return `${sentence.slice(0, end)} (${resolved})${sentence.slice(end)}`
}

const stopWords = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being am i me my mine we us our ours you your yours ' +
    'he him his she her hers it its they them their this that these those there here what which who whom whose when where why how do does did ' +
    'doing have has had having not no yes so just very really too also can could would should will shall may might must about into over than ' +
    "then out up down off again once all any both each few more most other some such only own same i'm i've i'll i'd it's that's you're " +
    "we're they're there's what's don't didn't doesn't isn't wasn't can't won't let's im ive dont thats"
  ).split(' '),
)
/** Words of small talk: they carry tone, not facts. */
const smallTalk = new Set(
  (
    'hey hi hello yo wow whoa oh ooh aw aww ah yay yeah yep ok okay sure thanks thank thx congrats congratulations awesome cool great nice ' +
    'amazing wonderful fantastic incredible glad happy sorry lol haha bye goodbye care good love lovely sounds totally absolutely definitely ' +
    'exactly agree agreed true right well pretty super proud inspiring inspired stuff thing things something anything everything lot lots ' +
    "feel feels felt know think means mean see hear heard awesome beautiful hope hopefully keep going got get it's rock appreciate here's " +
    // Time words: a date counts on its own, not as content.
    'today yesterday tomorrow tonight last next week weekend month year ago recently lately time day days'
  ).split(' '),
)
const number =
  /\b\d+(?:[.,:]\d+)*(?:st|nd|rd|th|%|k)?\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|million)\b/giu
const absoluteDate = new RegExp(`\\b(?:${monthPattern}|(?:19|20)\\d{2}|${weekdays.join('|')})\\b`, 'iu')
const relativeTime =
  /\b(?:yesterday|tomorrow|tonight|today|ago|recently|lately|(?:last|next|this|past|coming) (?:week(?:end)?|month|year|summer|winter|spring|fall|autumn|night|time|sunday|monday|tuesday|wednesday|thursday|friday|saturday))\b/iu
const firstPerson = /\b(?:i|we|my|our|i'm|i've|i'll|i'd|we're|we've|we'll)\b/iu
const factVerb =
  /\b(?:\w+ed|went|got|began|begun|bought|made|took|met|ran|read|won|lost|found|saw|did|had|built|wrote|gave|left|moved|started|joined|finished|planning|plan|going to|gonna|decided|want to|hope to|signed|adopted|work|works|working|live|lives|living|study|studying|since|used to)\b/iu
const decisionWords = /\b(?:will|decided|decide|chose|choose|booked|plan|planned|agreed|let's|should|recommend|going to|confirmed)\b/iu

export function contentWords(sentence: string): string[] {
  return (sentence.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).filter((word) => !stopWords.has(word) && !smallTalk.has(word))
}

/**
 * How many facts a sentence holds: its content words, plus names mentioned mid-sentence, numbers,
 * dates, first-person statements and decisions. Questions and exclamations count for less; greetings,
 * thanks and small talk score 0. `speakers` are left out of the names (they are everywhere).
 */
export function sentenceScore(sentence: string, speakers: ReadonlySet<string>): number {
  const words = new Set(contentWords(sentence))
  const names = midSentenceNames(sentence).filter((name) => !isSpeaker(name, speakers))
  const numbers = Math.min(3, (sentence.match(number) ?? []).length)
  const dated = absoluteDate.test(sentence) || relativeTime.test(sentence)
  if (words.size < 2 || (words.size < 3 && names.length === 0 && numbers === 0 && !dated)) return 0
  let score = Math.min(words.size, 12) + 2 * Math.min(names.length, 3) + 1.5 * numbers + (dated ? 2 : 0)
  if (firstPerson.test(sentence) && factVerb.test(sentence)) score += 2
  if (decisionWords.test(sentence)) score += 1
  const question = /\?\s*$/u.test(sentence)
  if (question) return names.length + numbers === 0 && !dated ? 0 : score * 0.4
  if (/!\s*$/u.test(sentence)) score *= 0.75
  return score
}

/** A speaker's name or a short form of it ("Mel" for "Melanie"). */
export function isSpeaker(word: string, speakers: ReadonlySet<string>): boolean {
  for (const speaker of speakers) if (speaker === word || (word.length >= 3 && speaker.split(' ')[0]?.startsWith(word) === true)) return true
  return false
}

/** `text` cut (with "…") to at most `maxTokens`. */
export function trimToTokens(text: string, maxTokens: number, count: (text: string) => number): string {
  if (count(text) <= maxTokens) return text
  let low = 0
  let high = text.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (count(`${text.slice(0, middle)}…`) <= maxTokens) low = middle
    else high = middle - 1
  }
  return low === 0 ? '' : `${text.slice(0, low)}…`
}

const interjection = /^(?:(?:hey|hi|oh|ooh|wow|whoa|yeah|yep|yes|well|so|ah|aw+|haha|lol|btw|anyway|ok|okay|omg)\b[,!.…-]*\s+)+(?=\S)/iu

/** `sentence` without the "Yeah, " or "Oh wow, " it opens with. */
export function withoutInterjection(sentence: string): string {
  const rest = sentence.replace(interjection, '')
  return rest === sentence || rest.length < 8 ? sentence : `${rest[0]?.toUpperCase() ?? ''}${rest.slice(1)}`
}
