import { ThreadlensError } from '@threadlens/core'

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
