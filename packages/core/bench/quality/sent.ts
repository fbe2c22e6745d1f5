// What one strategy sent for one question, in the terms the metrics need, whoever built it.

export interface Sent {
  /** Thread seqs whose content went out as written (not summarized, masked or otherwise shortened). */
  readonly verbatim: ReadonlySet<number>
  /** Text of the summary messages sent ('' when none). */
  readonly summary: string
  /** All text sent but the pending question: message contents, tool calls' names and arguments. */
  readonly text: string
  /** Input tokens of the request, o200k_base, threadlens's accounting. */
  readonly tokens: number
  /** A tool message without its call, or a call without its result, somewhere in the request. */
  readonly invalid: boolean
  readonly ms: number
  /** What recall sent (tokens of its block) or why it sent nothing, for policies with recall. */
  readonly recall?: { readonly tokens: number; readonly skipped: string | undefined }
}
