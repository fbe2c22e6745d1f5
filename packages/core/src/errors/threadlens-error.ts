import { issuesText } from '../validation/issues'

/** The `Symbol.for` key of one error class's marker: the same in every copy of a package. */
function markerOf(errorName: string): symbol {
  return Symbol.for(`threadlens.error.${errorName}`)
}

type ErrorClass = abstract new (...args: never[]) => unknown

/** The `errorName` a class declares itself (not one it inherits), if any. */
function ownErrorName(errorClass: unknown): string | undefined {
  if (typeof errorClass !== 'function' || !Object.hasOwn(errorClass, 'errorName')) return undefined
  const errorName = (errorClass as { errorName?: unknown }).errorName
  return typeof errorName === 'string' ? errorName : undefined
}

/**
 * The base of every error threadlens throws. Each class declares its own `static errorName`;
 * a new error carries a `Symbol.for` marker for its class and every threadlens class above it, so
 * `SomeError.isInstance(value)` is true for that class and its subclasses even when the value was
 * thrown by another copy of the package (two bundles, two versions, another realm), where
 * `instanceof` is false.
 */
export class ThreadlensError extends Error {
  /** The class's name as a string that minifiers keep; every subclass declares its own. */
  static readonly errorName: string = 'ThreadlensError'
  // Declared, not defined as a field: the constructor sets it (the same own property, less code).
  declare readonly name: string

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    // Walk the class chain: an instance of a subclass is also an instance of each class above it.
    let errorClass: unknown = new.target
    while (typeof errorClass === 'function' && errorClass !== Error) {
      const errorName = ownErrorName(errorClass)
      if (errorName !== undefined) Object.defineProperty(this, markerOf(errorName), { value: true })
      errorClass = Object.getPrototypeOf(errorClass)
    }
    // An app's own subclass that declares no errorName still gets a useful name.
    this.name = ownErrorName(new.target) ?? new.target.name
  }

  /**
   * Whether `value` is an error of this class (or a subclass), from any copy of threadlens.
   * `InvalidEntryError.isInstance(error)` narrows `error` to `InvalidEntryError`.
   */
  static isInstance<T>(this: ErrorClass & { readonly prototype: T }, value: unknown): value is T {
    const errorName = ownErrorName(this)
    // A subclass declared outside threadlens without its own errorName: only instanceof can tell.
    if (errorName === undefined) return value instanceof this
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[markerOf(errorName)] === true
  }
}

/** An entry given to `append` does not match its kind's schema, or breaks a thread rule. */
export class InvalidEntryError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidEntryError'
  /** Dotted path of the offending field, e.g. `payload.role`; `''` for the entry as a whole. */
  declare readonly field: string
  /** The rule that was broken, without the field (e.g. `circular reference: the value contains itself`). */
  declare readonly rule: string
  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(field === '' ? message : `Invalid entry: ${field}: ${message}`, options)
    this.field = field
    this.rule = message
  }
}

/**
 * A tool name providers would refuse: it must match `^[a-zA-Z0-9_-]{1,64}$` (letters, digits, `_`
 * and `-`, 1 to 64 of them), the rule of both OpenAI and Anthropic.
 */
export class InvalidToolNameError extends InvalidEntryError {
  static override readonly errorName: string = 'InvalidToolNameError'
  /** The name that was refused. */
  declare readonly toolName: string
  /** The rule's pattern source. */
  declare readonly pattern: '^[a-zA-Z0-9_-]{1,64}$'
  constructor(toolName: string, field = 'payload.name') {
    const shown = JSON.stringify(toolName.length > 80 ? `${toolName.slice(0, 80)}…` : toolName)
    super(
      field,
      `tool name ${shown} breaks the rule ^[a-zA-Z0-9_-]{1,64}$ (${toolName.length} characters; only letters, digits, _ and - , at most 64): rename the tool, e.g. "${suggestToolName(toolName)}"`,
    )
    this.toolName = toolName
    this.pattern = '^[a-zA-Z0-9_-]{1,64}$'
  }
}

function suggestToolName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)
  return replaced === '' ? 'tool' : replaced
}

/** A request holds an image or file whose bytes the store keeps, and they were not given to the format. */
export class AttachmentUnavailableError extends ThreadlensError {
  static override readonly errorName: string = 'AttachmentUnavailableError'
  declare readonly attachmentId: string
  constructor(attachmentId: string) {
    super(
      `The bytes of attachment ${attachmentId} were not given: load them from the store (attachments.base64) and pass attachmentData to the format, or leave the image out with policy.keepImagesTurns.`,
    )
    this.attachmentId = attachmentId
  }
}

/** A thread or entry id that is not 1-128 characters of A-Z a-z 0-9 _ . : - (or not a string at all). */
export class InvalidIdError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidIdError'
  /** `thread` or `entry`. */
  declare readonly kind: 'thread' | 'entry'
  constructor(kind: 'thread' | 'entry', value: unknown) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : `a ${value === null ? 'null' : typeof value}`
    super(`A ${kind} id must be a string of 1-128 characters of A-Z a-z 0-9 _ . : - (got ${shown})`)
    this.kind = kind
  }
}

/** Policy options failed validation. */
export class InvalidPolicyError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidPolicyError'
  declare readonly issues: readonly { path: string; message: string }[]
  constructor(issues: readonly { path: string; message: string }[], options?: { cause?: unknown }) {
    super(`Invalid policy: ${issuesText(issues)}`, options)
    this.issues = issues
  }
}

/** A provider-format message array could not be imported. */
export class InvalidMessagesError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidMessagesError'
  /** Index of the offending message in the input array; `undefined` when the input as a whole is wrong. */
  declare readonly index: number | undefined
  declare readonly field: string
  constructor(index: number | undefined, field: string, message: string, options?: { cause?: unknown }) {
    super(
      index === undefined ? `Invalid messages: ${message}` : `Invalid message at index ${index}${field === '' ? '' : ` (${field})`}: ${message}`,
      options,
    )
    this.index = index
    this.field = field
  }
}

/** A model description given to `registerModel` failed validation. */
export class InvalidModelInfoError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidModelInfoError'
  declare readonly issues: readonly { path: string; message: string }[]
  constructor(issues: readonly { path: string; message: string }[], options?: { cause?: unknown }) {
    super(`Invalid model info: ${issuesText(issues)}`, options)
    this.issues = issues
  }
}

/** No model with this id is known to `policyForModel`/`modelInfo`. */
export class UnknownModelError extends ThreadlensError {
  static override readonly errorName: string = 'UnknownModelError'
  declare readonly modelId: string
  constructor(modelId: string) {
    super(
      `Unknown model "${modelId}": pass its limits yourself with definePolicy({ maxInputTokens, reserveOutputTokens }) ` +
        `or register it with registerModel().`,
    )
    this.modelId = modelId
  }
}

/** A tokenizer encoding could not be loaded (e.g. the chunk failed to download). */
export class TokenizerLoadError extends ThreadlensError {
  static override readonly errorName: string = 'TokenizerLoadError'
  declare readonly encoding: string
  constructor(encoding: string, options?: { cause?: unknown }) {
    super(`Could not load the "${encoding}" tokenizer; check the network or use createTokenCounter('heuristic').`, options)
    this.encoding = encoding
  }
}

/** The mandatory part of a request (system, tools, pending, latest user message) does not fit, even after compaction. */
export class BudgetOverflowError extends ThreadlensError {
  static override readonly errorName: string = 'BudgetOverflowError'
  /** Tokens the request needs. */
  declare readonly required: number
  /** Tokens the policy allows for input. */
  declare readonly budget: number
  constructor(required: number, budget: number) {
    super(
      `The request needs ${required} tokens but the input budget is ${budget}, even after compaction: ` +
        `shorten the system prompt, tool schemas or the message, or use a policy with a larger maxInputTokens.`,
    )
    this.required = required
    this.budget = budget
  }
}

/** What a revision-checked write was aimed at: a memory space, or a stored thread's record (title, tags, metadata). */
export type RevisionTarget =
  { readonly kind: 'memory-space'; readonly memoryId: string; readonly space: string } | { readonly kind: 'thread-record'; readonly threadId: string }

/**
 * A write named a revision (`expectedRev`) that is no longer current: someone else wrote first and
 * nothing was written. The one conflict error for every optimistic write: memory spaces and thread
 * records.
 */
export class RevisionConflictError extends ThreadlensError {
  static override readonly errorName: string = 'RevisionConflictError'
  /** What the write was aimed at. */
  declare readonly target: RevisionTarget
  /** The revision the write expected. */
  declare readonly expected: number
  /** The revision stored now. */
  declare readonly actual: number
  /** What is stored now (the memory space, or the thread record), so the caller can merge and retry. */
  declare readonly current: unknown
  // Repeated on purpose: the same shape as UnreadableEntryError in packages/store/src/errors.ts (two errors, each with its own fields).
  constructor(target: RevisionTarget, expected: number, actual: number, current: unknown) {
    const what = target.kind === 'memory-space' ? `Memory "${target.memoryId}" space "${target.space}"` : `Thread "${target.threadId}"`
    super(
      `${what} is at revision ${actual}, not ${expected}: someone else wrote it first and nothing was written. ` +
        'Merge your change into error.current and retry with expectedRev set to error.actual.',
    )
    this.target = target
    this.expected = expected
    this.actual = actual
    this.current = current
  }
}

/** A memory space operation that is never allowed (deleting a built-in, a wrong data kind). */
export class InvalidMemoryOperationError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidMemoryOperationError'
  declare readonly space: string
  constructor(space: string, message: string, options?: { cause?: unknown }) {
    super(`Memory space "${space}": ${message}`, options)
    this.space = space
  }
}

/** `simulatePromptCache` was given requests it cannot replay (out of time order, negative counts, too many breakpoints). */
export class InvalidCacheSimulationError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidCacheSimulationError'
  /** Index of the offending request. */
  declare readonly requestIndex: number
  constructor(requestIndex: number, message: string) {
    super(`Cannot simulate the prompt cache: request ${requestIndex}: ${message}`)
    this.requestIndex = requestIndex
  }
}

/** `replayCall` could not find what it needs (the record, its policy, tools or memory, or the counter it used). */
export class ReplayError extends ThreadlensError {
  static override readonly errorName: string = 'ReplayError'
  constructor(message: string) {
    super(message)
  }
}
