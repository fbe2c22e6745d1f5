import { createRecallIndex } from '../src/recall/index'
import { project, toOpenAIChat, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter } from '../src/index'
import { REPLY_PRIMING_TOKENS } from '../src/internal/index'
import { langChainRequestJson, trimCandidates } from './langchain-session'
import { createMessageCounter, langchainPairing, trim, trimOptions } from './langchain-trim'
import { countO200k } from './o200k'
import { countOrphans, projectedPairing } from './orphans'
import { cacheGrid, sharedPrefix, threadlensBreak, type CallRecord } from './prefix-reuse'
import type { Billing } from './provider-billing'
import { SESSION_SYSTEM_PROMPT, SESSION_TOOLS } from './scripted-session'

// The ways of building a request the context-quality bench compares. Each is called at every model
// call of the session, builds the request it would send, and records how much of it repeats the
// request it built the call before.

/** Every this many calls, trimMessages also gets the whole thread, to confirm the tail it usually gets changes nothing. */
const TAIL_CHECK_EVERY = 25

export interface ModelCall {
  readonly turn: number
  readonly call: 'first' | 'after-tools'
  /** The user's message, not yet in the thread, on the first call of a turn. */
  readonly pending: string | undefined
}

export interface Strategy {
  readonly label: string
  readonly records: CallRecord[]
  /** Requests that would be rejected: a tool message without its call, or a call without its result. */
  invalidRequests: number
  /** Calls after tools whose request leaves out some of the turn in progress (its tool calls or results). */
  currentTurnCut: number
  /** What each provider would bill for the requests, when asked for. */
  readonly billing?: Billing
  observe(call: ModelCall): Promise<void>
}

function record(
  call: ModelCall,
  match: ReturnType<typeof sharedPrefix>,
  previous: { readonly messages: number; readonly requestTokens: number },
  requestTokens: number,
  messages: number,
  why: { reason: string; detail: string } | undefined,
): CallRecord {
  return {
    turn: call.turn,
    call: call.call,
    share: match.reusedTokens / match.messageTokens,
    reusedTokens: match.reusedTokens,
    requestTokens,
    messages,
    previousMessages: previous.messages,
    previousRequestTokens: previous.requestTokens,
    brokeAt: match.matched < previous.messages ? match.matched : undefined,
    reason: why?.reason,
    detail: why?.detail,
  }
}

/** Whether the request leaves out an entry of the turn in progress (after the latest user message). */
function cutsCurrentTurn(thread: Thread, result: ProjectionResult): boolean {
  const latestUser = thread.index.userSeqs[thread.index.userSeqs.length - 1]
  if (latestUser === undefined) return false
  const included = new Set(result.meta.includedSeqs)
  return thread.slice(latestUser).some((entry) => !included.has(entry.seq))
}

/** A threadlens policy's requests; a policy with recall gets an index of its own (as a session keeps one per thread). */
export function threadlensStrategy(label: string, policy: ContextPolicy, thread: Thread, counter: TokenCounter, billing?: Billing): Strategy {
  const recall = policy.recall === undefined ? undefined : createRecallIndex()
  let previous: { json: string[]; result: ProjectionResult } | undefined
  const strategy: Strategy = {
    label,
    records: [],
    invalidRequests: 0,
    currentTurnCut: 0,
    ...(billing === undefined ? {} : { billing }),
    async observe(call) {
      const pending = call.pending === undefined ? {} : { pending: [{ role: 'user' as const, content: call.pending }] }
      const result = project({ thread, policy, counter, tools: SESSION_TOOLS, ...pending, ...(recall === undefined ? {} : { recall }) })
      billing?.billProjection(result, SESSION_TOOLS)
      const json = toOpenAIChat(result).map((message) => JSON.stringify(message))
      if (countOrphans(result.messages.map(projectedPairing)) > 0) strategy.invalidRequests++
      const currentTurnCut = call.pending === undefined && cutsCurrentTurn(thread, result)
      if (currentTurnCut) strategy.currentTurnCut++
      if (previous !== undefined) {
        const match = sharedPrefix(
          previous.json,
          json,
          result.meta.messages.map((info) => info.tokens),
        )
        const cache = policy.cacheFriendly ? { thread, grid: cacheGrid(thread, policy, counter, result), currentTurnCut } : undefined
        const why = match.matched < previous.json.length ? threadlensBreak(previous.result, result, match.matched, cache) : undefined
        const before = { messages: previous.json.length, requestTokens: previous.result.meta.tokens.total }
        strategy.records.push(record(call, match, before, result.meta.tokens.total, json.length, why))
      }
      previous = { json, result }
    },
  }
  return strategy
}

export function langchainStrategy(thread: Thread, counter: TokenCounter, toolTokens: number, inputBudget: number, billing?: Billing): Strategy {
  const { tokenCounter } = createMessageCounter(countO200k)
  // The tool schemas go out with every request: trimMessages gets what is left of the budget after them.
  const maxTokens = inputBudget - toolTokens
  let previous: { json: string[]; requestTokens: number } | undefined
  let tailCalls = 0
  const strategy: Strategy = {
    label: 'LangChain trimMessages (last)',
    records: [],
    invalidRequests: 0,
    currentTurnCut: 0,
    ...(billing === undefined ? {} : { billing }),
    async observe(call) {
      const pending = call.pending === undefined ? undefined : { id: `pending-${call.turn}`, content: call.pending }
      const candidatesFor = (whole: boolean): ReturnType<typeof trimCandidates> =>
        trimCandidates({ thread, systemPrompt: SESSION_SYSTEM_PROMPT, pending, counter, tailTokens: 2 * inputBudget, whole })
      let candidates = candidatesFor(false)
      let output = await trim(candidates.messages, trimOptions(maxTokens, tokenCounter))
      // Kept the oldest message of a cut tail: the tail was too short to be sure, so trim the whole thread.
      if (!candidates.fromStart && output[1]?.id === candidates.messages[1]?.id) {
        candidates = candidatesFor(true)
        output = await trim(candidates.messages, trimOptions(maxTokens, tokenCounter))
      } else if (!candidates.fromStart && ++tailCalls % TAIL_CHECK_EVERY === 0) {
        const whole = await trim(candidatesFor(true).messages, trimOptions(maxTokens, tokenCounter))
        if (whole.map(langChainRequestJson).join('\n') !== output.map(langChainRequestJson).join('\n')) {
          throw new Error(
            `[threadlens] trimMessages kept different messages from the tail than from the whole thread (turn ${call.turn}): raise tailTokens`,
          )
        }
      }
      billing?.billLangChain(output, (message) => tokenCounter([message]) - REPLY_PRIMING_TOKENS, SESSION_TOOLS)
      const json = output.map(langChainRequestJson)
      if (countOrphans(output.map(langchainPairing)) > 0) strategy.invalidRequests++
      if (call.pending === undefined && output[output.length - 1]?.id !== candidates.messages[candidates.messages.length - 1]?.id)
        strategy.currentTurnCut++
      const requestTokens = tokenCounter(output) + toolTokens
      if (previous !== undefined) {
        const match = sharedPrefix(
          previous.json,
          json,
          output.map((message) => tokenCounter([message]) - REPLY_PRIMING_TOKENS),
        )
        let why: { reason: string; detail: string } | undefined
        if (match.matched < previous.json.length) {
          const moved = !json.includes(previous.json[match.matched] as string)
          why = {
            reason: moved ? 'window start moved: newest messages that fit' : 'other',
            detail: `diverged at message ${match.matched} of ${previous.json.length}`,
          }
        }
        strategy.records.push(
          record(call, match, { messages: previous.json.length, requestTokens: previous.requestTokens }, requestTokens, json.length, why),
        )
      }
      previous = { json, requestTokens }
    },
  }
  return strategy
}
