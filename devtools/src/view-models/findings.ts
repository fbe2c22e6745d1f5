import type { ContextPolicy, Entry, MessageInfo, PolicyOptions, ProjectionMeta } from '@threadlens/core'
import { formatNumber, formatPercent } from './meter-parts'

/** What wastes the window, found in one projection: a sentence, its tokens, and the entry it is about. */
export interface Finding {
  readonly kind: 'near-overflow' | 'large-tool-result' | 'repeated' | 'stale-image' | 'unused-tools' | 'policy-saving'
  /** Unique in one list. */
  readonly id: string
  readonly text: string
  /** Tokens it takes (or, for a policy change, would save); `undefined` when not known. */
  readonly tokens: number | undefined
  /** The entry to open for it; `undefined` when it is about no one entry (tool definitions, the whole request). */
  readonly seq: number | undefined
  readonly tone: 'warn' | 'danger' | 'plain'
  /** The policy change the finding suggests, to preview in the Policy lab; `undefined` when no setting fixes it. */
  readonly change?: { readonly label: string; readonly options: PolicyOptions }
}

export interface FindingsInput {
  readonly meta: ProjectionMeta
  /** The thread's entries, by seq (`entryAt(seq)`), and all of them in order (to see which tools were called and where turns start). */
  readonly entries: readonly Entry[]
  readonly entryAt: (seq: number) => Entry | undefined
  /** Names of the tool definitions sent with the request. */
  readonly toolNames: readonly string[]
  readonly policy: Pick<ContextPolicy, 'keepLastTurns' | 'toolTrace'> & { readonly keepImagesTurns?: number | undefined }
}

/** A finding about one entry is listed when it takes at least this share of the input budget. */
export const LARGE_SHARE = 0.05
/** The request is near overflow within this share of the input budget. */
export const NEAR_OVERFLOW_SHARE = 0.05
/** Images still sent this many user turns after their own are kept past their use. */
export const STALE_IMAGE_TURNS = 2
/** Tokens a masked tool result still takes (the placeholder naming tool, call id and size), for the saving estimate. */
export const MASK_PLACEHOLDER_TOKENS = 30
/** Repeated tool results are listed when their older copies take at least this share of the input budget. */
export const REPEATED_SHARE = 0.01
/** At most this many large tool results are listed. */
const LARGEST = 3

/** One history message built from one tool result, with the entry. */
interface ToolResultMessage {
  readonly seq: number
  readonly info: MessageInfo
  readonly entry: Extract<Entry, { kind: 'tool_result' }>
}

function toolResultMessages(meta: ProjectionMeta, entryAt: FindingsInput['entryAt']): ToolResultMessage[] {
  const found: ToolResultMessage[] = []
  for (const info of meta.messages) {
    if (info.segment !== 'history' || info.seqs.length !== 1 || info.synthetic !== undefined) continue
    const seq = info.seqs[0] as number
    const entry = entryAt(seq)
    if (entry?.kind === 'tool_result') found.push({ seq, info, entry })
  }
  return found
}

/** Seqs of the user messages, ascending: where turns start. */
function userSeqs(entries: readonly Entry[]): number[] {
  return entries.filter((entry) => entry.kind === 'message' && entry.payload.role === 'user').map((entry) => entry.seq)
}

/** How many user turns start after `seq`. */
function turnsAfter(starts: readonly number[], seq: number): number {
  let low = 0
  let high = starts.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((starts[middle] as number) <= seq) low = middle + 1
    else high = middle
  }
  return starts.length - low
}

const share = (tokens: number, meta: ProjectionMeta) => (meta.budget.input > 0 ? formatPercent(tokens / meta.budget.input) : '–')

function overflowFinding(meta: ProjectionMeta): Finding | undefined {
  const { total } = meta.tokens
  const { input } = meta.budget
  if (meta.overflow)
    return {
      kind: 'near-overflow',
      id: 'overflow',
      text: `Over the budget: what must be sent (system prompt, tools, the newest message) alone takes ${formatNumber(total)} of ${formatNumber(input)} tokens — shorten it, or send fewer tool definitions`,
      tokens: total,
      seq: undefined,
      tone: 'danger',
    }
  if (input > 0 && total >= input * (1 - NEAR_OVERFLOW_SHARE)) {
    return {
      kind: 'near-overflow',
      id: 'near-overflow',
      text: `Near overflow: ${formatNumber(total)} of ${formatNumber(input)} tokens (${share(total, meta)}) — the next turn will leave history out unless a summary or a smaller policy makes room`,
      tokens: total,
      seq: undefined,
      tone: 'danger',
    }
  }
  return undefined
}

function largeToolResults(meta: ProjectionMeta, results: readonly ToolResultMessage[]): Finding[] {
  return [...results]
    .filter((item) => item.info.tokens >= meta.budget.input * LARGE_SHARE)
    .sort((a, b) => b.info.tokens - a.info.tokens || a.seq - b.seq)
    .slice(0, LARGEST)
    .map((item) => ({
      kind: 'large-tool-result',
      id: `large-${item.seq}`,
      text: `Large tool result: #${item.seq} (${item.entry.payload.name}) takes ${formatNumber(item.info.tokens)} tokens, ${share(item.info.tokens, meta)} of the budget${item.info.reduced === undefined ? '' : ' even shortened'}`,
      tokens: item.info.tokens,
      seq: item.seq,
      tone: 'warn',
    }))
}

/** Tool results sent more than once with the same tool and output: every copy but the newest is waste. */
function repeatedResults(meta: ProjectionMeta, results: readonly ToolResultMessage[], all: readonly Entry[]): Finding[] {
  const groups = new Map<string, ToolResultMessage[]>()
  for (const item of results) {
    if (item.info.reduced !== undefined) continue
    const payload = item.entry.payload
    const key = `${payload.name}\u0000${payload.error === undefined ? JSON.stringify(payload.result) : `error\u0000${payload.error}`}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [item])
    else group.push(item)
  }
  const repeated = [...groups.values()].filter((group) => group.length > 1)
  if (repeated.length === 0) return []
  // The calls' arguments: the policy's dedupe only merges results of the same arguments.
  const argumentsOf = new Map<string, string>()
  for (const entry of all)
    if (entry.kind === 'tool_call' && entry.refs.toolCallId !== undefined)
      argumentsOf.set(entry.refs.toolCallId, JSON.stringify(entry.payload.arguments))
  const found: Finding[] = []
  for (const group of repeated) {
    const older = group.slice(0, -1)
    const newest = group.at(-1) as ToolResultMessage
    const tokens = older.reduce((sum, item) => sum + item.info.tokens, 0)
    if (tokens < meta.budget.input * REPEATED_SHARE) continue
    const first = older[0] as ToolResultMessage
    const sameArguments = new Set(group.map((item) => argumentsOf.get(item.entry.refs.toolCallId ?? '') ?? `#${item.seq}`)).size === 1
    const fix = sameArguments
      ? `dedupeToolResults: true sends them as a reference to #${newest.seq}`
      : `the calls' arguments differ, so only the tool itself can avoid the repeat`
    found.push({
      kind: 'repeated',
      id: `repeated-${first.seq}`,
      text: `Repeated content: ${newest.entry.payload.name} returned the same result ${formatNumber(group.length)} times (#${group.map((item) => item.seq).join(', #')}); the older copies take ${formatNumber(tokens)} tokens — ${fix}`,
      tokens,
      seq: first.seq,
      tone: 'warn',
      ...(sameArguments ? { change: { label: 'dedupeToolResults: true', options: { dedupeToolResults: true } } } : {}),
    })
  }
  return found
}

function staleImages(meta: ProjectionMeta, starts: readonly number[], policy: FindingsInput['policy']): Finding[] {
  const found: Finding[] = []
  for (const info of meta.messages) {
    if (info.segment !== 'history' || info.attachmentTokens === undefined || info.attachmentTokens === 0) continue
    const seq = info.seqs.at(-1)
    if (seq === undefined) continue
    const later = turnsAfter(starts, seq)
    if (later < STALE_IMAGE_TURNS) continue
    // keepImagesTurns: N sends the images of the newest N turns only: 2 leaves this one out, unless the policy already keeps fewer (the message is then pinned).
    const helps = policy.keepImagesTurns === undefined || policy.keepImagesTurns > STALE_IMAGE_TURNS
    const setting = `keepImagesTurns: ${STALE_IMAGE_TURNS}`
    found.push({
      kind: 'stale-image',
      id: `image-${seq}`,
      text: `Image kept past its use: #${seq}'s attachments are still sent ${formatNumber(later)} turns later (${formatNumber(info.attachmentTokens)} tokens) — ${helps ? `${setting} leaves older images out and keeps their text` : 'the message is pinned, which keeps its images'}`,
      tokens: info.attachmentTokens,
      seq,
      tone: 'warn',
      ...(helps ? { change: { label: setting, options: { keepImagesTurns: STALE_IMAGE_TURNS } } } : {}),
    })
  }
  return found
}

function unusedTools(meta: ProjectionMeta, all: readonly Entry[], toolNames: readonly string[]): Finding | undefined {
  if (toolNames.length === 0) return undefined
  const called = new Set<string>()
  for (const entry of all) if (entry.kind === 'tool_call') called.add(entry.payload.name)
  const unused = [...new Set(toolNames)].filter((name) => !called.has(name))
  if (unused.length === 0) return undefined
  // Schemas are counted together: each unused one's share is estimated as an equal part.
  const tokens = Math.round((meta.tokens.tools * unused.length) / new Set(toolNames).size)
  return {
    kind: 'unused-tools',
    id: 'unused-tools',
    text: `Tool definitions never called in this thread: ${unused.join(', ')} (about ${formatNumber(tokens)} of the ${formatNumber(meta.tokens.tools)} tokens the tool definitions take, sent on every call) — send them only when they can be used`,
    tokens,
    seq: undefined,
    tone: 'plain',
  }
}

/** What masking tool results older than the protected turns would save, when the policy does not mask them yet. */
function maskingSaving(
  meta: ProjectionMeta,
  results: readonly ToolResultMessage[],
  starts: readonly number[],
  policy: FindingsInput['policy'],
): Finding | undefined {
  if (policy.toolTrace !== 'transparent') return undefined
  const older = results.filter((item) => item.info.reduced === undefined && turnsAfter(starts, item.seq) >= policy.keepLastTurns)
  const tokens = older.reduce((sum, item) => sum + Math.max(0, item.info.tokens - MASK_PLACEHOLDER_TOKENS), 0)
  if (older.length === 0 || tokens < meta.budget.input * LARGE_SHARE) return undefined
  const largest = [...older].sort((a, b) => b.info.tokens - a.info.tokens)[0] as ToolResultMessage
  return {
    kind: 'policy-saving',
    id: 'mask-older-results',
    text: `Policy change: masking the ${formatNumber(older.length)} tool result${older.length === 1 ? '' : 's'} older than the last ${formatNumber(policy.keepLastTurns)} turns (toolTrace: 'masked') would save about ${formatNumber(tokens)} tokens, ${share(tokens, meta)} of the budget`,
    tokens,
    seq: largest.seq,
    tone: 'plain',
    change: { label: "toolTrace: 'masked'", options: { toolTrace: 'masked' } },
  }
}

/**
 * What wastes the context window in this projection, biggest first (overflow always first): the
 * largest tool results, tool results sent more than once, images still sent turns after their
 * question, tool definitions never called, near-overflow, and what masking older tool results
 * would save. Each names the entry it is about, when there is one, so a click can open it.
 */
export function findings(input: FindingsInput): Finding[] {
  const { meta, entries: all, entryAt, toolNames, policy } = input
  const results = toolResultMessages(meta, entryAt)
  const starts = userSeqs(all)
  const overflow = overflowFinding(meta)
  const rest = [
    ...largeToolResults(meta, results),
    ...repeatedResults(meta, results, all),
    ...staleImages(meta, starts, policy),
    ...[unusedTools(meta, all, toolNames), maskingSaving(meta, results, starts, policy)].filter((item): item is Finding => item !== undefined),
  ].sort((a, b) => (b.tokens ?? 0) - (a.tokens ?? 0))
  return overflow === undefined ? rest : [overflow, ...rest]
}
