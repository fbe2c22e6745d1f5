import type { Entry } from '../entries/entry'

export interface SummarizeInput {
  /** The summary this one continues (iterative summaries), or `undefined` for the first. */
  readonly previousSummary: string | undefined
  /** Entries after the previous summary, oldest first (pinned entries and context ops left out). */
  readonly entries: readonly Entry[]
  /** The summary must not be longer than this many tokens (counted with `countTokens`). */
  readonly maxTokens: number
  readonly countTokens: (text: string) => number
  readonly signal: AbortSignal | undefined
}

/** Writes summary text. It may be a model call, or anything else; it never writes to the thread itself. */
export interface Summarizer {
  /** Shown in devtools and failure markers. */
  readonly name: string
  summarize(input: SummarizeInput): Promise<string>
}
