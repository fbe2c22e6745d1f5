import { compact, decideCompaction, extractiveSummarizer, type ContextPolicy, type ProjectionResult, type ThreadlensEvent, type TokenCounter, type ToolSchema } from '@threadlens/core'
import { chooseMemoryText, visibleTurns, type HeldMemory } from '@threadlens/core/caching'
import { projectHoldingMemory } from '@threadlens/core/internal'
import { assertFits, type CompactOptions } from '@threadlens/core/compaction'
import { requestMemoryText } from '@threadlens/core/memory'
import type { RecallSearcher } from '@threadlens/core/recall'
import type { ContextTooLongError } from '../model/errors'
import { policyWithin, serverLimitOf, unnamedServerLimit } from './context-recovery'
import type { SessionEvent } from './session-events'
import type { RequestState, SessionInternals } from './session-internals'

/** A projection ready to send, with the memory text it holds and the seq it was made at. */
export interface FittedContext {
  readonly projection: ProjectionResult
  readonly memory: string | undefined
  readonly basisSeq: number
}

/**
 * Makes each call's context fit: projects with the memory text, compacts when the policy calls for
 * it, and recovers from a provider's "context too long". Holds the memory text last sent, so memory
 * moves in step with the prompt cache window (memory hysteresis).
 */
export class ContextFitting {
  readonly #session: SessionInternals
  #heldMemory: HeldMemory | undefined

  constructor(session: SessionInternals) {
    this.#session = session
  }

  /** Projects; compacts once when the policy calls for it; a typed error if it still cannot fit. */
  async fit(policy: ContextPolicy, counter: TokenCounter, tools: readonly ToolSchema[], onEvent: (event: ThreadlensEvent) => void): Promise<FittedContext> {
    const fresh = await this.#freshMemory(policy, counter)
    let result = await this.#projectWithMemory(policy, counter, tools, fresh)
    if (decideCompaction(result.projection, policy).action === 'compact') {
      // The projection just made is compaction's "before"; its counts are the meter's (tools and memory in).
      const compacted = await this.compact(policy, counter, onEvent, { projection: result.projection, tools, ...(result.memory === undefined ? {} : { memory: result.memory }) })
      if (compacted) result = await this.#projectWithMemory(policy, counter, tools, fresh)
    }
    assertFits(result.projection)
    return result
  }

  /**
   * The memory text the next `send()` would carry on its first call, decided as that call will
   * decide it, its message counted as a turn (see `Session.nextCallMemory`). Changes nothing: only a
   * call that is sent moves the hold.
   */
  async nextMemory(policy: ContextPolicy, counter: TokenCounter, tools: readonly ToolSchema[]): Promise<string> {
    const fresh = await this.#freshMemory(policy, counter)
    const thread = await this.#session.mirror.thread()
    const turn = visibleTurns(thread) + 1
    // Only a held text needs the projection (to see whether the window it was rendered under still stands).
    if (!chooseMemoryText({ fresh, held: this.#heldMemory, thread, policy, counter, turn }).held) return fresh
    return projectHoldingMemory({ thread, policy, counter, tools, fresh, held: this.#heldMemory, turn, ...this.#recall() }).memory
  }

  /** The session's recall searcher, as `project()` takes it (none when the session has none). */
  #recall(): { readonly recall?: RecallSearcher } {
    const recall = this.#session.options.recall
    return recall === undefined ? {} : { recall }
  }

  /** The memory as it is now, rendered as the policy has a request carry it; `''` for none. */
  async #freshMemory(policy: ContextPolicy, counter: TokenCounter): Promise<string> {
    return requestMemoryText((await this.#session.options.memory?.()) ?? undefined, policy, counter)
  }

  // Memory moves in step with the cache window (policy.cache.memoryHoldTurns): the held text is sent
  // again until the window moves, the change grows large or the turns run out. The call record keeps
  // the text that was sent, so a replay needs no memory store.
  async #projectWithMemory(policy: ContextPolicy, counter: TokenCounter, tools: readonly ToolSchema[], fresh: string): Promise<FittedContext> {
    const thread = await this.#session.mirror.thread()
    const basisSeq = thread.nextSeq
    const { projection, memory, hold } = projectHoldingMemory({ thread, policy, counter, tools, fresh, held: this.#heldMemory, ...this.#recall() })
    this.#heldMemory = hold
    return { projection, basisSeq, memory: memory === '' ? undefined : memory }
  }

  /**
   * Summarizes what the policy allows now; `true` when something was summarized. `request`: the
   * projection that called for it and its tools and memory, so the compaction's before and after
   * counts are the request's own.
   */
  async compact(
    policy: ContextPolicy,
    counter: TokenCounter,
    onEvent: (event: ThreadlensEvent) => void,
    request: Pick<CompactOptions, 'projection' | 'tools' | 'memory'> = {},
  ): Promise<boolean> {
    const thread = await this.#session.mirror.thread()
    const result = await compact({ ...request, thread, policy, counter, summarizer: this.#session.options.summarizer ?? extractiveSummarizer(), onEvent })
    if (result.entries.length > 0) await this.#session.mirror.append(result.entries)
    return result.status === 'summarized'
  }

  /**
   * One recovery from "context too long": the first compacts (and adopts a limit the error named),
   * later ones only adopt a newly named, smaller limit. `false` when nothing changed, so sending
   * again would only fail the same way.
   */
  async recover(
    error: ContextTooLongError,
    state: RequestState,
    sent: { readonly policy: ContextPolicy; readonly counter: TokenCounter; readonly projection: ProjectionResult },
    recovery: number,
    onEvent: (event: SessionEvent) => void,
  ): Promise<boolean> {
    let changed = false
    const model = this.#session.options.model.id
    const refused = sent.projection.meta.tokens.total
    const limit = serverLimitOf(error, model, sent.policy, refused) ?? (recovery === 1 && error.limitTokens === undefined ? unnamedServerLimit(model, sent.policy, refused) : undefined)
    if (limit !== undefined) {
      this.#session.update({ serverLimit: limit })
      onEvent({ type: 'server-limit-learn', requestId: state.requestId, ...limit })
      changed = true
    }
    if (recovery === 1) {
      const within = policyWithin(state.policy, this.#session.snapshot().serverLimit)
      if (await this.compact(within, sent.counter, onEvent)) changed = true
    }
    return changed
  }
}
