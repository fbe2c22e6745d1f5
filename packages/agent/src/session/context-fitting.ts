import {
  compact,
  extractiveSummarizer,
  type ContextPolicy,
  type ProjectionResult,
  type ThreadlensEvent,
  type TokenCounter,
  type ToolSchema,
} from '@threadlens/core'
import { chooseMemoryText, visibleTurns, type HeldMemory } from '@threadlens/core/caching'
import { projectHoldingMemory } from '@threadlens/core/internal'
import type { CompactOptions } from '@threadlens/core/compaction'
import { requestMemoryText } from '@threadlens/core/memory'
import type { RecallSearcher } from '@threadlens/core/recall'
import type { SessionOptions } from './session-options'
import type { ThreadMirror } from './thread-mirror'

/** A projection ready to send, with the memory text it holds and the seq it was made at. */
export interface FittedContext {
  readonly projection: ProjectionResult
  readonly memory: string | undefined
  readonly basisSeq: number
}

/**
 * What a call's context is made of: the thread projected with the memory text, and compaction.
 * Holds the memory text last sent, across requests, so memory moves in step with the prompt cache
 * window (memory hysteresis). When each of these runs is the request's decision (`run-request.ts`).
 */
export class ContextFitting {
  readonly #mirror: ThreadMirror
  readonly #options: Pick<SessionOptions, 'memory' | 'recall' | 'summarizer'>
  #heldMemory: HeldMemory | undefined

  constructor(mirror: ThreadMirror, options: Pick<SessionOptions, 'memory' | 'recall' | 'summarizer'>) {
    this.#mirror = mirror
    this.#options = options
  }

  /**
   * The memory text the next `send()` would carry on its first call, decided as that call will
   * decide it, its message counted as a turn (see `Session.nextCallMemory`). Changes nothing: only a
   * call that is sent moves the hold.
   */
  async nextMemory(policy: ContextPolicy, counter: TokenCounter, tools: readonly ToolSchema[]): Promise<string> {
    const fresh = await this.freshMemory(policy, counter)
    const thread = await this.#mirror.thread()
    const turn = visibleTurns(thread) + 1
    // Only a held text needs the projection (to see whether the window it was rendered under still stands).
    if (!chooseMemoryText({ fresh, held: this.#heldMemory, thread, policy, counter, turn }).held) return fresh
    return projectHoldingMemory({ thread, policy, counter, tools, fresh, held: this.#heldMemory, turn, ...this.#recall() }).memory
  }

  /** The session's recall searcher, as `project()` takes it (none when the session has none). */
  #recall(): { readonly recall?: RecallSearcher } {
    const recall = this.#options.recall
    return recall === undefined ? {} : { recall }
  }

  /** The memory as it is now, rendered as the policy has a request carry it; `''` for none. */
  async freshMemory(policy: ContextPolicy, counter: TokenCounter): Promise<string> {
    return requestMemoryText((await this.#options.memory?.()) ?? undefined, policy, counter)
  }

  /**
   * The thread projected for the next call, with `fresh` or the memory text held since an earlier
   * call: memory moves in step with the cache window (policy.cache.memoryHoldTurns), so the held text
   * is sent again until the window moves, the change grows large or the turns run out. The call
   * record keeps the text that was sent, so a replay needs no memory store.
   */
  async project(policy: ContextPolicy, counter: TokenCounter, tools: readonly ToolSchema[], fresh: string): Promise<FittedContext> {
    const thread = await this.#mirror.thread()
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
    const thread = await this.#mirror.thread()
    const result = await compact({ ...request, thread, policy, counter, summarizer: this.#options.summarizer ?? extractiveSummarizer(), onEvent })
    if (result.entries.length > 0) await this.#mirror.append(result.entries)
    return result.status === 'summarized'
  }
}
