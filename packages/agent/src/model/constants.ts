/** Every default of the model clients, in one place. */

/** Retries after the first attempt, for retryable failures before the first streamed event. */
export const DEFAULT_MAX_RETRIES = 2
/** First backoff delay; it doubles with each retry, with jitter. */
export const DEFAULT_RETRY_DELAY_MS = 500
/** Longest backoff delay, and the longest `retry-after` a client waits for before giving up at once. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000
/** Longest time one model call may spend on failed attempts and the waits between them before it gives up. */
export const DEFAULT_MAX_RETRY_TOTAL_MS = 120_000
/** Longest wait for a response's first event (a local server may be loading its model). */
export const DEFAULT_FIRST_EVENT_TIMEOUT_MS = 120_000
/** Longest silence between two events of a streaming response before the call counts as stalled. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1'
export const ANTHROPIC_VERSION = '2023-06-01'
/** `max_tokens` is required by the Messages API; this is sent when neither the client nor the request sets one. */
export const DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS = 4096

export const DEFAULT_SCRIPTED_MODEL_ID = 'scripted'
/** Characters per streamed chunk of a scripted reply (about one token). */
export const DEFAULT_SCRIPTED_CHUNK_SIZE = 4
