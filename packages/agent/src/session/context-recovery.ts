import { type ContextPolicy, type SessionServerLimit, ThreadlensError, withPolicy } from '@threadlens/core'
import type { ContextTooLongError } from '../model/errors'

/**
 * Times one request may recover from a provider's "context too long": once by compacting, once
 * more by projecting within the limit the error named. A third such error ends the request.
 */
export const MAX_CONTEXT_RECOVERIES = 2

/** Kept below a server's stated limit, for the difference between its counting and ours. */
const SERVER_LIMIT_SAFETY = 0.95

/**
 * The most model calls one `send` or `resume` makes: one per iteration, plus the calls sent again
 * after a context recovery. Each call is at most `maxRetries + 1` HTTP requests (the client's retry
 * policy), so a request sends at most `(maxIterations + MAX_CONTEXT_RECOVERIES) × (maxRetries + 1)`.
 */
export function maxModelCalls(maxIterations: number): number {
  return maxIterations + MAX_CONTEXT_RECOVERIES
}

/** The loop asked for more model calls than its bound allows: a bug in the loop, never the provider's doing. */
export class ModelCallLimitError extends ThreadlensError {
  static override readonly errorName: string = 'ModelCallLimitError'
  readonly limit: number
  constructor(limit: number) {
    super(`This request already made its ${limit} model calls (maxIterations + ${MAX_CONTEXT_RECOVERIES} context recoveries); it stops here.`)
    this.limit = limit
  }
}

/** Counts model calls for one request; the only place the bound is enforced. */
export class ModelCallBudget {
  readonly limit: number
  #used = 0
  constructor(limit: number) {
    this.limit = limit
  }
  get used(): number {
    return this.#used
  }
  take(): void {
    if (this.#used >= this.limit) throw new ModelCallLimitError(this.limit)
    this.#used += 1
  }
}

/**
 * What the server's error says its window really is, in the policy's counting: the stated limit
 * scaled by how the server's count of this request compares to ours (when it said), with a margin.
 * `undefined` when the error names no limit, or the limit is no smaller than what the policy uses.
 */
export function serverLimitOf(error: ContextTooLongError, model: string, policy: ContextPolicy, localTokens: number): SessionServerLimit | undefined {
  const limitTokens = error.limitTokens
  if (limitTokens === undefined) return undefined
  const requestedTokens = error.requestedTokens
  // The server's tokens per local token; never trust a ratio that makes the window bigger.
  const ratio = requestedTokens !== undefined && localTokens > 0 ? Math.max(1, requestedTokens / localTokens) : 1
  const maxInputTokens = Math.floor((limitTokens / ratio) * SERVER_LIMIT_SAFETY)
  if (maxInputTokens <= 0 || maxInputTokens >= policy.maxInputTokens) return undefined
  return { model, limitTokens, requestedTokens, maxInputTokens }
}

/** Of a refused request's input, what the session tries next when the server named no limit. */
const UNNAMED_LIMIT_SHARE = 0.75

/**
 * When the server refused a request as too long without naming its limit: its window is smaller
 * than the policy says, so the session projects within 3/4 of the input it refused (`limitTokens`
 * is then that refused size). A summary stands in only for what does not fit, so without a
 * smaller window a retry would send the same request and fail the same way.
 */
export function unnamedServerLimit(model: string, policy: ContextPolicy, refusedTokens: number): SessionServerLimit | undefined {
  // `policyWithin` keeps at most a quarter of the window for the reply: size the window so the
  // input left after that reserve is the target.
  const target = Math.floor(refusedTokens * UNNAMED_LIMIT_SHARE)
  const maxInputTokens = target + Math.min(policy.reserveOutputTokens, Math.floor(target / 3))
  if (refusedTokens <= 0 || maxInputTokens >= policy.maxInputTokens) return undefined
  return { model, limitTokens: refusedTokens, requestedTokens: undefined, maxInputTokens }
}

/** `policy` within a server's limit: a smaller window, with the reply's reserve scaled down to fit it. */
export function policyWithin(policy: ContextPolicy, limit: SessionServerLimit | undefined): ContextPolicy {
  if (limit === undefined || limit.maxInputTokens >= policy.maxInputTokens) return policy
  const reserve = Math.min(policy.reserveOutputTokens, Math.floor(limit.maxInputTokens / 4))
  return withPolicy(policy, { maxInputTokens: limit.maxInputTokens, reserveOutputTokens: reserve })
}

/** The policy a model call of the session projects with: the request's, within the server's own limit once it named one for this model. */
export function callPolicy(policy: ContextPolicy, limit: SessionServerLimit | undefined, model: string): ContextPolicy {
  return policyWithin(policy, limit?.model === model ? limit : undefined)
}
