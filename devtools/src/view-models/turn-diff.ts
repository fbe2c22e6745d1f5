import type { ProjectedMessage, ProjectionResult, Reduction } from '@threadlens/core'
import { cacheBreakpoints, sharedPrefix, type CacheBreakpoint } from '@threadlens/core/caching'
import { describeFate, entryFates } from '@threadlens/core/views'
import { reasonInWords } from './plain-words'

/** How an entry is present in a request. */
export type EntryForm = 'whole' | Reduction | 'summary' | 'recalled'

/** One thread entry whose presence or form differs between two requests. */
export interface EntryChange {
  readonly seq: number
  readonly change: 'entered' | 'left' | 'changed'
  /** Its form in the earlier request, `undefined` when absent there. */
  readonly before: EntryForm | undefined
  readonly after: EntryForm | undefined
  /** The entry's share of its message's tokens in each request (a message built from several entries splits evenly). */
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly delta: number
  /** Why, as the projector states it: the fate that kept it out, or the rule that changed its form. */
  readonly reason: string
  /** Why, in plain words (the `reason` is the expert detail). */
  readonly words: string
}

/** Where the later request stops repeating the earlier one (what a provider's prompt cache can reuse). */
export interface PrefixBreak {
  /** UTF-8 byte offset, in the neutral messages' JSON (`JSON.stringify(messages)`), of the first differing character; `undefined` when the earlier request is a prefix of the later. */
  readonly byte: number | undefined
  /** Index in the earlier request's messages where it happens. */
  readonly messageIndex: number | undefined
  /** Leading messages both requests share byte for byte. */
  readonly sharedMessages: number
  readonly sharedTokens: number
  /** A few characters each side of the break, as text. */
  readonly beforeText: string
  readonly afterText: string
}

/** One of the earlier request's cache breakpoints, and whether this request still repeats everything up to it. */
export interface BreakpointReuse {
  readonly breakpoint: CacheBreakpoint
  /** Tokens up to and including the breakpoint's message (tool schemas included). */
  readonly prefixTokens: number
  readonly reusable: boolean
}

export interface TurnDiff {
  readonly changes: readonly EntryChange[]
  readonly entered: number
  readonly left: number
  readonly changed: number
  readonly tokenDelta: number
  readonly tokensBefore: number
  readonly tokensAfter: number
  readonly prefix: PrefixBreak
  /** The earlier request's breakpoints: a cache entry written there is read back only if `reusable`. */
  readonly breakpoints: readonly BreakpointReuse[]
  /** Tokens this request could read from the earlier one's explicit breakpoints (the longest reusable one). */
  readonly reusableTokens: number
}

function formsBySeq(result: ProjectionResult): Map<number, { form: EntryForm; tokens: number }> {
  const forms = new Map<number, { form: EntryForm; tokens: number }>()
  result.meta.messages.forEach((info) => {
    if (info.seqs.length === 0) return
    const share = info.tokens / info.seqs.length
    const form: EntryForm = info.segment === 'summary' ? 'summary' : info.segment === 'recall' ? 'recalled' : (info.reduced ?? 'whole')
    for (const seq of info.seqs) forms.set(seq, { form, tokens: (forms.get(seq)?.tokens ?? 0) + share })
  })
  return forms
}

// Repeated on purpose: a word table, the shape of codeByName in packages/store/src/storage-error-codes.ts (other keys, other meaning).
const formWords: Readonly<Record<EntryForm, string>> = {
  whole: 'sent whole',
  masked: 'masked',
  pruned: 'pruned',
  deduped: 'deduped',
  summary: 'summary checkpoint',
  recalled: 'recalled (in the recall block)',
}

function absentReason(result: ProjectionResult, seq: number): string {
  if (seq >= result.meta.firstSeq + result.meta.entryCount) return 'not in the thread yet'
  const { label, rule } = describeFate(entryFates(result.meta).fateOf(seq))
  return `${label}: ${rule}`
}

/** Why an entry is absent, as a short phrase a user reads. */
function absentWords(result: ProjectionResult, seq: number): string {
  if (seq >= result.meta.firstSeq + result.meta.entryCount) return 'not in the thread yet'
  const fate = entryFates(result.meta).fateOf(seq)
  if (fate.state === 'dropped') return reasonInWords(fate.reason, result.meta.summary?.seq).short
  if (fate.state === 'summarized') return reasonInWords('summarized', fate.summarySeq).short
  return describeFate(fate).text
}

// UTF-8 length without allocating: code points over 0x7f take 2–4 bytes.
function utf8Length(text: string, end: number): number {
  let bytes = 0
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      index++
    } else bytes += 3
  }
  return bytes
}

function serialize(messages: readonly ProjectedMessage[]): { text: string; ends: number[] } {
  const ends: number[] = []
  let text = '['
  messages.forEach((message, index) => {
    text += (index === 0 ? '' : ',') + JSON.stringify(message)
    ends.push(text.length)
  })
  return { text: `${text}]`, ends }
}

const round = (value: number) => Math.round(value)
const CONTEXT_CHARS = 40

/**
 * What a request sent compared with an earlier one (the call before, or another policy): entries that
 * entered, left or changed form (masked → whole, …) with token deltas and the reason, where the
 * later request stops repeating the earlier one byte for byte, and which of the earlier request's
 * cache breakpoints it can still read. Pure.
 */
export function turnDiff(before: ProjectionResult, after: ProjectionResult): TurnDiff {
  const formsBefore = formsBySeq(before)
  const formsAfter = formsBySeq(after)
  const changes: EntryChange[] = []
  const seqs = [...new Set([...formsBefore.keys(), ...formsAfter.keys()])].sort((a, b) => a - b)
  for (const seq of seqs) {
    const was = formsBefore.get(seq)
    const now = formsAfter.get(seq)
    if (was !== undefined && now !== undefined && was.form === now.form) continue
    const tokensBefore = round(was?.tokens ?? 0)
    const tokensAfter = round(now?.tokens ?? 0)
    const change = was === undefined ? 'entered' : now === undefined ? 'left' : 'changed'
    const reason =
      change === 'entered'
        ? `was ${absentReason(before, seq)}`
        : change === 'left'
          ? absentReason(after, seq)
          : `${formWords[was?.form ?? 'whole']} → ${formWords[now?.form ?? 'whole']}`
    const words = change === 'entered' ? `was left out: ${absentWords(before, seq)}` : change === 'left' ? absentWords(after, seq) : reason
    changes.push({ seq, change, before: was?.form, after: now?.form, tokensBefore, tokensAfter, delta: tokensAfter - tokensBefore, reason, words })
  }

  const a = serialize(before.messages)
  const b = serialize(after.messages)
  const { messages: shared, tokens: sharedTokens } = sharedPrefix(before, after)
  // The earlier request is repeated whole when every message is shared (the closing bracket aside).
  const whole = shared === before.messages.length
  let byte: number | undefined
  let messageIndex: number | undefined
  let beforeText = ''
  let afterText = ''
  if (!whole) {
    let at = shared === 0 ? 1 : (a.ends[shared - 1] as number)
    while (at < a.text.length && at < b.text.length && a.text.charCodeAt(at) === b.text.charCodeAt(at)) at++
    byte = utf8Length(a.text, at)
    messageIndex = shared
    beforeText = a.text.slice(Math.max(0, at - CONTEXT_CHARS), at + CONTEXT_CHARS)
    afterText = b.text.slice(Math.max(0, at - CONTEXT_CHARS), at + CONTEXT_CHARS)
  }

  let running = before.meta.tokens.tools
  const prefixTokens = before.meta.messages.map((info) => (running += info.tokens))
  const breakpoints = cacheBreakpoints(before).anthropic.map((breakpoint) => {
    const tokens = breakpoint.at === 'tools' ? before.meta.tokens.tools : (prefixTokens[breakpoint.at] ?? 0)
    // Tool schemas are not in the projection: a breakpoint on them counts as kept when the counts agree.
    const reusable = breakpoint.at === 'tools' ? before.meta.tokens.tools === after.meta.tokens.tools : breakpoint.at < shared
    return { breakpoint, prefixTokens: tokens, reusable }
  })
  const reusableTokens = breakpoints.reduce((best, item) => (item.reusable ? Math.max(best, item.prefixTokens) : best), 0)
  const count = (kind: EntryChange['change']) => changes.filter((item) => item.change === kind).length
  return {
    changes,
    entered: count('entered'),
    left: count('left'),
    changed: count('changed'),
    tokenDelta: after.meta.tokens.total - before.meta.tokens.total,
    tokensBefore: before.meta.tokens.total,
    tokensAfter: after.meta.tokens.total,
    prefix: { byte, messageIndex, sharedMessages: shared, sharedTokens, beforeText, afterText },
    breakpoints,
    reusableTokens,
  }
}
