// The scripts of the fake providers and what they share: browser-safe (no node: imports), for the
// Node server and the Playwright route adapter alike.
import { type JsonObject } from '@threadlens/core'
import { heuristicCount } from '@threadlens/core/internal'

export interface FakeToolCall {
  /** Default: `call_fake_<request>_<position>` (OpenAI) or `toolu_fake_<request>_<position>` (Anthropic). */
  readonly id?: string
  readonly name: string
  /** An object, or raw text (to send broken JSON). */
  readonly arguments: JsonObject | string
}

/** A scripted 200 reply, streamed in the route's wire format. */
export interface FakeReply {
  readonly text?: string
  readonly toolCalls?: readonly FakeToolCall[]
  /** The provider's own stop value (`length`, `max_tokens`, `content_filter`…). Default: the one for a normal end or for tool calls. */
  readonly finishReason?: string
  /** Default: the request's estimated tokens. */
  readonly inputTokens?: number
  /** Default: the reply's estimated tokens. */
  readonly outputTokens?: number
  /** Prompt tokens reported as cache reads. Default: `0`. */
  readonly cachedInputTokens?: number
  /** Prompt tokens reported as cache writes (Anthropic `cache_creation_input_tokens`, OpenAI `cache_write_tokens`). Default: none for OpenAI, `0` for Anthropic. */
  readonly cacheWriteInputTokens?: number
  /** Stream the fragments of parallel tool calls interleaved, not one call after another. Default: `false`. */
  readonly interleaveToolCalls?: boolean
  /**
   * How the response ends after the text and tool calls: `finish` normally; `stall` keeps the
   * connection open without finishing (until the client goes away); `disconnect` destroys the
   * socket; `stream-error` sends the provider's in-stream error (Anthropic `overloaded_error`,
   * OpenRouter-style error chunk). Default: `finish`.
   */
  readonly end?: 'finish' | 'stall' | 'disconnect' | 'stream-error'
  /** Waits this long before sending the response's headers (a slow first byte). Default: `0`. */
  readonly firstByteDelayMs?: number
}

/** A 200 event stream written exactly as given (broken frames, no terminator…), then ended as `end` says. */
export interface FakeRawStream {
  readonly rawFrames: readonly string[]
  readonly end: 'finish' | 'stall' | 'disconnect'
  /** Waits this long before sending the response's headers. Default: `0`. */
  readonly firstByteDelayMs?: number
}

/** A scripted failure, answered with the provider's real error shape. */
export type FakeFailure =
  | { readonly fail: 'rate-limit'; readonly headers?: Readonly<Record<string, string>> }
  | { readonly fail: 'quota' }
  | { readonly fail: 'server' }
  | { readonly fail: 'overloaded' }
  | { readonly fail: 'context-too-long' }
  | { readonly fail: 'model-not-found' }
  | { readonly fail: 'raw'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }

export type FakeAnswer = FakeReply | FakeFailure | FakeRawStream
/** One scripted response; a function may answer from the request it got. */
export type FakeStep = FakeAnswer | ((request: RecordedRequest) => FakeAnswer)

/** A request the fake server received, as it came. */
export interface RecordedRequest {
  readonly route: 'openai-chat' | 'anthropic-messages' | 'unknown'
  readonly method: string
  readonly path: string
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly rawBody: string
  /** The parsed JSON body; `undefined` when it was not JSON. */
  readonly body: unknown
  /** The status the server answered. */
  status: number
  /** What the validation found wrong (the 400's message parts); empty when the request was valid. */
  problems: string[]
  /** The client closed the connection before the response ended (an abort, or a stream left early). */
  clientClosed: boolean
}

/** A whole non-streaming answer. */
export interface FakeResponse {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: unknown
}

/** A streaming answer: the SSE frames, then how the response ends. */
export interface FakeStream {
  readonly frames: readonly string[]
  readonly end: 'finish' | 'stall' | 'disconnect'
}

/** Tokens the server counts for a request body's prompt parts: heuristic, like a model's own count would roughly be. */
export function estimateRequestTokens(parts: readonly unknown[]): number {
  return parts.reduce<number>((total, part) => total + (part === undefined ? 0 : heuristicCount(JSON.stringify(part))), 0)
}

export function estimateReplyTokens(reply: FakeReply): number {
  let tokens = heuristicCount(reply.text ?? '')
  for (const call of reply.toolCalls ?? []) tokens += heuristicCount(call.name) + heuristicCount(argumentsText(call))
  return Math.max(1, tokens)
}

export function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
}

/** Splits text into pieces of about `size` characters, whole code points. */
export function pieces(text: string, size: number): string[] {
  const characters = Array.from(text)
  const result: string[] = []
  for (let start = 0; start < characters.length; start += size) result.push(characters.slice(start, start + size).join(''))
  return result
}

/**
 * Tool call argument fragments in stream order: call after call, or round-robin when interleaved.
 * Each item names the call's position.
 */
export function argumentFragments(reply: FakeReply, size: number): { position: number; fragment: string }[] {
  const perCall = (reply.toolCalls ?? []).map((call) => pieces(argumentsText(call), size))
  const fragments: { position: number; fragment: string }[] = []
  if (reply.interleaveToolCalls === true) {
    const longest = Math.max(0, ...perCall.map((list) => list.length))
    for (let step = 0; step < longest; step += 1) {
      perCall.forEach((list, position) => {
        const fragment = list[step]
        if (fragment !== undefined) fragments.push({ position, fragment })
      })
    }
  } else {
    perCall.forEach((list, position) => {
      for (const fragment of list) fragments.push({ position, fragment })
    })
  }
  return fragments
}

export function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `messages[3].content[0]: text` → `{ path: 'messages.3.content.0', text }` (the providers' dotted paths). */
export function splitProblem(problem: string): { path: string; text: string } {
  const colon = problem.indexOf(': ')
  if (colon === -1) return { path: '', text: problem }
  return { path: problem.slice(0, colon).replace(/\[(\d+)\]/g, '.$1'), text: problem.slice(colon + 2) }
}

/** One provider's wire format: how the fake server checks, fails and streams for its path. */
export interface FakeRoute {
  readonly name: Exclude<RecordedRequest['route'], 'unknown'>
  readonly path: string
  /** The provider's 401 (or 400 for a missing version header), or `undefined` when the headers are right; a `null` key accepts any key or none. */
  checkHeaders(headers: Readonly<Record<string, string>>, apiKey: string | null): FakeResponse | undefined
  /** The provider's answer to a body that is not JSON. */
  notJson(): FakeResponse
  /** Everything wrong with the body, one sentence each; empty when valid. */
  problems(body: unknown): string[]
  /** The provider's 400 for those problems. */
  invalid(problems: readonly string[]): FakeResponse
  /** The prompt's estimated tokens (messages, system, tools). */
  promptTokens(body: { readonly [key: string]: unknown }): number
  /** The provider's context-too-long error. */
  contextTooLong(tokens: number, limit: number): FakeResponse
  failure(failure: FakeFailure, body: { readonly [key: string]: unknown }): FakeResponse
  stream(reply: FakeReply, body: { readonly [key: string]: unknown }, call: { readonly number: number; readonly promptTokens: number }): FakeStream
}
