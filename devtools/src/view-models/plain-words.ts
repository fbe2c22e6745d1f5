import type { ContextPolicy } from '@threadlens/core'
import type { EntryFate } from '@threadlens/core/views'
import type { LeftOutReason } from './left-out'

/** A reason in words: `short` for a line that names it, `sentence` for what to do about it. */
export interface ReasonWords {
  /** `did not fit the token budget` */
  readonly short: string
  /** What happened and the setting that changes it, as a sentence a user can act on. */
  readonly sentence: string
}

const turns = (count: number) => `${count} turn${count === 1 ? '' : 's'}`

/** `the last 4 turns`, `the last 4 turns (at most 30 messages)`, `the last 30 messages`, or `the turns`. */
function windowWords(policy: ContextPolicy | undefined): string {
  const messages = policy?.maxMessages === undefined ? undefined : `${policy.maxMessages} message${policy.maxMessages === 1 ? '' : 's'}`
  if (policy?.maxTurns !== undefined) return `the last ${turns(policy.maxTurns)}${messages === undefined ? '' : ` (at most ${messages})`}`
  return messages === undefined ? 'the turns' : `the last ${messages}`
}

/** `the last 3 turns`, or `the newest turns` without a policy. */
const keptTurns = (policy: ContextPolicy | undefined) => (policy === undefined ? 'the newest turns' : `the last ${turns(policy.keepLastTurns)}`)

/** Each reason's words: as they are, or made from the summary that stands in and the policy's own values. */
const reasonWords: {
  readonly [R in LeftOutReason]: ReasonWords | ((summarySeq: number | undefined, policy: ContextPolicy | undefined) => ReasonWords)
} = {
  budget: (_, policy) => ({
    short: 'they did not fit the token budget',
    sentence: `Left out: they did not fit the room the request has${policy === undefined ? '' : ` (${(policy.maxInputTokens - policy.reserveOutputTokens).toLocaleString('en-US')} tokens: maxInputTokens minus reserveOutputTokens)`}; the newest are kept first. Raise maxInputTokens, or summarize older turns to keep their gist.`,
  }),
  window: (_, policy) => ({
    short: 'they are older than the turns the policy keeps',
    sentence: `Left out: older than ${windowWords(policy)} the policy sends. Raise maxTurns or maxMessages to send more history.`,
  }),
  'cache-window': {
    short: 'the window moves in steps to keep the prompt cache',
    sentence:
      'Left out early so the start of the request stays the same between calls and the provider’s prompt cache keeps hitting (cacheFriendly). Turn cacheFriendly off to send as much as fits every time.',
  },
  summarized: (summarySeq) => ({
    short: 'a summary stands in for them',
    sentence: `Not sent as written: the summary${summarySeq === undefined ? '' : ` (entry #${summarySeq})`} is sent in their place, because they do not all fit. Raise maxInputTokens to send more of them word for word.`,
  }),
  superseded: { short: 'a newer summary replaces it', sentence: 'Not sent: an older summary; the newest summary covers the same turns and more.' },
  unneeded: {
    short: 'everything it covers fits',
    sentence: 'Not sent: this summary is not needed, because the turns it covers all fit and are sent word for word.',
  },
  isolated: {
    short: 'older tool calls are reduced to their outcome',
    sentence:
      "Not sent: tool calls and results of earlier requests; only the answer they led to is kept (toolTrace 'boundary'). Set toolTrace to 'transparent' to send them all.",
  },
  masked: (_, policy) => ({
    short: `tool results older than ${keptTurns(policy)} are masked`,
    sentence: `Shortened: tool results older than ${keptTurns(policy)} are sent as a short placeholder (name, call id and size) to save room (toolTrace 'masked'). Raise keepLastTurns to keep more results whole, or set toolTrace to 'transparent'.`,
  }),
  pruned: (_, policy) => ({
    short: 'long tool outputs are cut to head and tail',
    sentence: `Shortened: tool outputs over ${policy?.pruneToolOutputsOverTokens === undefined ? 'the limit' : `${policy.pruneToolOutputsOverTokens.toLocaleString('en-US')} tokens`} are sent as their first and last lines (pruneToolOutputsOverTokens). Raise it, or unset it, to send them whole.`,
  }),
  deduped: {
    short: 'a newer identical result is sent instead',
    sentence:
      'Shortened: the same tool result came back again later, so this one is sent as a reference to it (dedupeToolResults). Turn dedupeToolResults off to send each copy.',
  },
  kind: {
    short: 'their kind is not sent',
    sentence: 'Not sent: the policy leaves this kind of entry out (includeKinds). Add the kind to includeKinds to send it.',
  },
  reset: {
    short: 'they come before a reset',
    sentence:
      'Not sent: the conversation was reset after them; nothing before a reset is sent again. Fork the chat from an earlier entry to get them back.',
  },
  applied: {
    short: 'context operations are applied, not sent',
    sentence: 'Not sent: a pin, unpin or reset changes what is sent; it is never sent itself.',
  },
  unresolved: {
    short: 'a tool call never got its result',
    sentence:
      "Not sent: a tool call that never got a result (unresolvedToolCalls: 'drop'). Set unresolvedToolCalls to 'interrupt' to send it with a note that it was interrupted.",
  },
  orphan: {
    short: 'its tool call is not sent',
    sentence: 'Not sent: a tool result whose call is left out; a result is never sent without its call.',
  },
}

/**
 * Why entries were left out or shortened, in words a user can act on: what happened, and the policy
 * setting that changes it (with the policy's own values when it is given). The rule as the projector
 * states it stays available as expert detail (see `left-out`'s `rule`).
 */
export function reasonInWords(reason: LeftOutReason, summarySeq?: number, policy?: ContextPolicy): ReasonWords {
  const words = reasonWords[reason]
  return typeof words === 'function' ? words(summarySeq, policy) : words
}

const percent = (ratio: number) => `${(Math.abs(ratio - 1) * 100).toFixed(1)}%`

/**
 * A model's token calibration in words: how the provider counts against the local counter, and the
 * room budgets leave for the difference. The figures (ratio ± spread, planned ratio) are expert detail.
 */
export function calibrationWords(options: {
  readonly ratio: number
  readonly calls: number
  readonly upperRatio: number
  readonly calibrated: boolean
  readonly minimumSamples: number
}): string {
  const { ratio, calls, upperRatio, calibrated, minimumSamples } = options
  const counts =
    Math.abs(ratio - 1) < 0.0005
      ? 'counts the same as the local counter'
      : `counts ${percent(ratio)} ${ratio > 1 ? 'more' : 'fewer'} tokens than the local counter`
  const over = `over ${calls} call${calls === 1 ? '' : 's'}`
  const room = upperRatio <= 1 ? 'budgets need no extra room' : `budgets leave ${percent(upperRatio)} room for it`
  return calibrated
    ? `${counts} (${over}); ${room}.`
    : `${counts} (${over}); until ${minimumSamples} calls have reported usage, ${room.replace('for it', 'by default')}.`
}

/** An entry's fate as a sentence a user can act on, when it was left out or shortened; `undefined` when it was sent as written. */
export function fateInWords(fate: EntryFate, policy?: ContextPolicy): string | undefined {
  if (fate.state === 'dropped') return reasonInWords(fate.reason, undefined, policy).sentence
  if (fate.state === 'summarized') return reasonInWords('summarized', fate.summarySeq, policy).sentence
  if (fate.state === 'included' && fate.reduced !== undefined) return reasonInWords(fate.reduced, undefined, policy).sentence
  return undefined
}
