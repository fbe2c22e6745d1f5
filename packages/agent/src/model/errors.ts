import { ThreadlensError } from '@threadlens/core'
import type { ModelClientProvider } from './model-client'

/** What every provider error knows about the failed call. Never holds an API key, a header or a request body. */
export interface ProviderErrorDetails {
  readonly provider: ModelClientProvider
  /** The model id the call asked for. */
  readonly model: string
  /** The HTTP status; `undefined` when no response arrived, or the failure came inside the stream. */
  readonly status: number | undefined
  /** The provider's own explanation, with any API key scrubbed out; `undefined` when it gave none. */
  readonly providerMessage: string | undefined
  /** The provider's error code or type, e.g. `context_length_exceeded`, `overloaded_error`. */
  readonly code: string | undefined
  /** The provider's request id (`x-request-id`, `request-id`), for its support. */
  readonly requestId: string | undefined
}

/**
 * The base of every failed model call. `retryable` says whether the same request may succeed if
 * sent again; clients already retried it (up to `maxRetries`) before throwing.
 */
export class ProviderError extends ThreadlensError implements ProviderErrorDetails {
  static override readonly errorName: string = 'ProviderError'
  // Repeated on purpose: the fields of ProviderErrorDetails above, declared again so that each is an own readonly
  // property of the error (set from the details in the constructor).
  readonly provider: ModelClientProvider
  readonly model: string
  readonly status: number | undefined
  readonly providerMessage: string | undefined
  readonly code: string | undefined
  readonly requestId: string | undefined
  readonly retryable: boolean

  constructor(message: string, details: ProviderErrorDetails, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options)
    this.provider = details.provider
    this.model = details.model
    this.status = details.status
    this.providerMessage = details.providerMessage
    this.code = details.code
    this.requestId = details.requestId
    this.retryable = retryable
  }
}

function said(details: ProviderErrorDetails): string {
  const status = details.status === undefined ? '' : `HTTP ${details.status}`
  const text = details.providerMessage === undefined ? '' : `"${details.providerMessage}"`
  const both = [status, text].filter((part) => part !== '').join(': ')
  return both === '' ? '' : ` (${both})`
}

/** 401 or 403: the key is missing, wrong, revoked, or may not use this model. Never retried. */
export class ProviderAuthError extends ProviderError {
  static override readonly errorName: string = 'ProviderAuthError'
  constructor(details: ProviderErrorDetails) {
    super(
      `The ${details.provider} server refused the credentials for model "${details.model}"${said(details)}. ` +
        'Check the apiKey (and any auth headers) given to the client, and that the key may use this model.',
      details,
      false,
    )
  }
}

/** 429: too many requests or tokens per minute, or (with `quotaExceeded`) no credit left. */
export class RateLimitError extends ProviderError {
  static override readonly errorName: string = 'RateLimitError'
  /** How long the provider asked to wait (`retry-after-ms`, `retry-after` or rate limit reset headers); `undefined` when it did not say. */
  readonly retryAfterMs: number | undefined
  /** The account's quota or credit is used up (OpenAI `insufficient_quota`): waiting will not help. */
  readonly quotaExceeded: boolean
  constructor(details: ProviderErrorDetails, retryAfterMs: number | undefined, quotaExceeded: boolean) {
    super(
      quotaExceeded
        ? `The ${details.provider} account has no quota left for model "${details.model}"${said(details)}. Check the plan and billing; retrying will not help.`
        : `The ${details.provider} server is rate limiting model "${details.model}"${said(details)}; ` +
            (retryAfterMs === undefined ? 'wait a little and send again.' : `send again in ${Math.ceil(retryAfterMs)} ms.`),
      details,
      !quotaExceeded,
    )
    this.retryAfterMs = retryAfterMs
    this.quotaExceeded = quotaExceeded
  }
}

/** The request does not fit the model's context window. Never retried as is: compact the thread first. */
export class ContextTooLongError extends ProviderError {
  static override readonly errorName: string = 'ContextTooLongError'
  /** Tokens the provider counted in the request, when its message said. */
  readonly requestedTokens: number | undefined
  /** The model's limit, when the provider's message said. */
  readonly limitTokens: number | undefined
  constructor(details: ProviderErrorDetails, requestedTokens: number | undefined, limitTokens: number | undefined) {
    const size =
      requestedTokens === undefined && limitTokens === undefined
        ? ''
        : ` (${requestedTokens === undefined ? 'request size not given' : `${requestedTokens} tokens requested`}, ${limitTokens === undefined ? 'limit not given' : `limit ${limitTokens}`})`
    super(
      `The request is too long for model "${details.model}"${size}${said(details)}. ` +
        'Compact the thread, or project with a policy whose maxInputTokens matches the model (policyForModel).',
      details,
      false,
    )
    this.requestedTokens = requestedTokens
    this.limitTokens = limitTokens
  }
}

/** 5xx, Anthropic's 529 `overloaded_error`, an error event inside the stream, or a malformed stream. Retried. */
export class ProviderServerError extends ProviderError {
  static override readonly errorName: string = 'ProviderServerError'
  constructor(details: ProviderErrorDetails, options?: { cause?: unknown; retryable?: boolean; what?: string }) {
    super(
      `The ${details.provider} server failed${options?.what === undefined ? '' : ` (${options.what})`} for model "${details.model}"${said(details)}. ` +
        "This is on the provider's side: try again later.",
      details,
      options?.retryable ?? true,
      options?.cause === undefined ? undefined : { cause: options.cause },
    )
  }
}

/** Any other 4xx: the provider rejected the request (unknown model, bad parameter). Retried only for 408 and 409. */
export class ProviderRequestError extends ProviderError {
  static override readonly errorName: string = 'ProviderRequestError'
  constructor(details: ProviderErrorDetails, retryable: boolean) {
    super(
      `The ${details.provider} server rejected the request for model "${details.model}"${said(details)}. ` +
        'Check the model id, the baseURL and the client options against what this server supports.',
      details,
      retryable,
    )
  }
}

/** No response, or the connection broke before the reply finished. Retried when no event was streamed yet. */
export class ProviderNetworkError extends ProviderError {
  static override readonly errorName: string = 'ProviderNetworkError'
  /** Scheme, host and port the client tried to reach. */
  readonly origin: string
  constructor(details: ProviderErrorDetails, origin: string, problem: string, options?: { cause?: unknown }) {
    super(
      `The call to ${origin} for model "${details.model}" failed: ${problem}. ` +
        'Check the network, the baseURL, that the server is running, and (in a browser) that it allows CORS.',
      details,
      true,
      options,
    )
    this.origin = origin
  }
}

/** `scriptedModel` was called more times than its script has replies. */
export class ScriptExhaustedError extends ThreadlensError {
  static override readonly errorName: string = 'ScriptExhaustedError'
  readonly replies: number
  constructor(replies: number) {
    super(
      `scriptedModel was called ${replies + 1} times but its script has ${replies} replies: ` +
        'add replies to the script, or pass a function that answers every call.',
    )
    this.replies = replies
  }
}

/** Options given to a model client failed validation. Names the option, never its value. */
export class InvalidModelClientOptionsError extends ThreadlensError {
  static override readonly errorName: string = 'InvalidModelClientOptionsError'
  readonly issues: readonly { path: string; message: string }[]
  constructor(client: string, issues: readonly { path: string; message: string }[]) {
    super(`Invalid ${client} options: ${issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('; ')}`)
    this.issues = issues
  }
}
