import { ThreadlensError } from '@threadlens/core'
import { issuesText, type ValidationIssue } from '@threadlens/core/internal'

/**
 * A `UIMessage` cannot be stored as thread entries: the message is not JSON (functions, cycles,
 * non-finite numbers), uses a key the store refuses (`__proto__`, `constructor`, `prototype`), or
 * has a file too large to keep inline. Nothing was written.
 */
export class UnstorableMessageError extends ThreadlensError {
  static override readonly errorName: string = 'UnstorableMessageError'
  /** The id of the message that could not be stored. */
  readonly messageId: string
  constructor(messageId: string, problem: string, options?: { cause?: unknown }) {
    super(`UI message "${messageId}" cannot be stored: ${problem}`, options)
    this.messageId = messageId
  }
}

/** Options given to an adapter function are missing or wrong; the message says which and how to fix it. */
export class InvalidAdapterOptionsError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidAdapterOptionsError'
}

/**
 * A server route's request body is not what `projectedSendMessagesRequest` sends, or carries
 * instructions the route does not take from the browser. `issues` says where and what.
 */
export class InvalidProjectedRequestError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidProjectedRequestError'
  /** `body`: not a projected request; `instructions`: system messages from the browser, which the route refuses. */
  readonly reason: 'body' | 'instructions'
  readonly issues: readonly ValidationIssue[]
  constructor(reason: 'body' | 'instructions', issues: readonly ValidationIssue[]) {
    super(`the projected request was refused: ${issuesText(issues)}`)
    this.reason = reason
    this.issues = issues
  }
}

/**
 * The `threadlens` member of a reply's metadata (what `projectedMessageMetadata` writes on the
 * server) is not readable: it is ignored, and the call keeps the record made when it was sent.
 */
export class InvalidCallMetadataError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidCallMetadataError'
  readonly messageId: string
  readonly issues: readonly ValidationIssue[]
  constructor(messageId: string, issues: readonly ValidationIssue[]) {
    super(`the call metadata of message "${messageId.slice(0, 120)}" was ignored: ${issuesText(issues)}`)
    this.messageId = messageId
    this.issues = issues
  }
}
