import {
  array,
  fail,
  Invalid,
  looseObject,
  oneOf,
  optional,
  problemIssue,
  read,
  safeParse,
  string,
  type Reader,
  type Shape,
  type ValidationIssue,
} from '@threadlens/core/internal'
import { modelMessageSchema, systemModelMessageSchema, type ModelMessage, type SystemModelMessage } from 'ai'
import { InvalidProjectedRequestError } from './errors'

export interface ReadProjectedRequestOptions {
  /**
   * The route's own system prompt: the route decides what the model is told to do. Returned first
   * in `instructions`. Default: none.
   */
  readonly instructions?: string | SystemModelMessage | readonly SystemModelMessage[]
  /**
   * Take the browser's system messages (the policy's system prompt, memory and summary projected in
   * the browser), after the route's own. Default: `false`: a body that carries any is refused with
   * `InvalidProjectedRequestError` (`reason: 'instructions'`), since anyone can send the route a body.
   * Apps whose policy has memory or summaries need them: allow them, or keep those on the server.
   */
  readonly allowClientInstructions?: boolean
  /** Most messages a body may carry. Default: 10,000. */
  readonly maxMessages?: number
}

/** A projected request, checked: what to give `streamText` and `toUIMessageStreamResponse`. */
export interface ProjectedRequest {
  /** The chat's id (`useChat`'s `id`). */
  readonly id: string
  readonly trigger: 'submit-message' | 'regenerate-message'
  /** For `toUIMessageStreamResponse({ generateMessageId: () => responseMessageId })`. */
  readonly responseMessageId: string
  /** For `projectedMessageMetadata(request)`. */
  readonly callId: string
  /** The route's instructions, then the browser's when allowed; `undefined` when there are none. */
  readonly instructions: SystemModelMessage[] | undefined
  /** The projected history, each message checked with the AI SDK's `modelMessageSchema`. */
  readonly messages: ModelMessage[]
  /** `instructions`, `messages` (and `allowSystemInMessages` when a system message is among them): spread into `streamText`. */
  readonly input: { readonly instructions?: SystemModelMessage[]; readonly messages: ModelMessage[]; readonly allowSystemInMessages?: true }
  /** Other members of the body (the app's own `body` of `sendMessage`), not checked: read them with your own schema. */
  readonly extra: { readonly [key: string]: unknown }
}

const idText = string({ min: 1, max: 256 })

/**
 * A message checked with the AI SDK's own schema (the app's `ai` version decides what a message
 * is); its first issue is reported at its place in the body.
 */
function aiMessage<T>(schema: Parameters<typeof safeParse>[0]): Reader<T> {
  return (value, at) => {
    const parsed = safeParse(schema, value)
    if (parsed.success) return parsed.data as T
    const issue = parsed.error.issues[0]
    let here = at
    for (const key of issue?.path ?? []) here = { parent: here, key: typeof key === 'number' ? key : String(key) }
    return fail(here, issue?.message ?? 'Invalid input')
  }
}

interface Body {
  readonly id: string
  readonly trigger: 'submit-message' | 'regenerate-message'
  readonly instructions?: SystemModelMessage[]
  readonly messages: ModelMessage[]
  readonly responseMessageId: string
  readonly callId: string
}

const bodyShape: Shape<Body> = {
  id: idText,
  trigger: oneOf(['submit-message', 'regenerate-message']),
  instructions: optional(array(aiMessage<SystemModelMessage>(systemModelMessageSchema))),
  messages: array(aiMessage<ModelMessage>(modelMessageSchema)),
  responseMessageId: idText,
  callId: idText,
}

// Other members are the app's own (`extra`), not read here.
const bodyReader = looseObject(bodyShape)

const unreadable = (error: unknown): string => `could not be read (${error instanceof Error ? error.name : typeof error})`

// A body whose getters throw, or nested too deep for the AI SDK's schemas: not a projected request either.
const guardedBodyReader: Reader<Body> = (value, at) => {
  try {
    return bodyReader(value, at)
  } catch (error) {
    if (error instanceof Invalid) throw error
    return fail(null, unreadable(error))
  }
}

const known = new Set(Object.keys(bodyShape))

function refuse(reason: 'body' | 'instructions', issues: readonly ValidationIssue[]): never {
  throw new InvalidProjectedRequestError(reason, issues)
}

function serverInstructions(value: ReadProjectedRequestOptions['instructions']): SystemModelMessage[] {
  if (value === undefined) return []
  if (typeof value === 'string') return [{ role: 'system', content: value }]
  return Array.isArray(value) ? [...(value as readonly SystemModelMessage[])] : [value as SystemModelMessage]
}

function parseBody(body: unknown, maxMessages: number): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    refuse('body', [
      {
        path: '',
        message: `expected the JSON object projectedSendMessagesRequest sends, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
      },
    ])
  let messages: unknown
  try {
    messages = (body as { messages?: unknown }).messages
  } catch (error) {
    refuse('body', [{ path: '', message: unreadable(error) }])
  }
  if (Array.isArray(messages) && messages.length > maxMessages)
    refuse('body', [{ path: 'messages', message: `${messages.length} messages, over maxMessages (${maxMessages})` }])
  const parsed = read(guardedBodyReader, body)
  if (!parsed.ok) refuse('body', [problemIssue(parsed.problem)])
  const { callId, responseMessageId } = parsed.value
  if (!callId.startsWith(`${responseMessageId}:`) || !/^\d{1,6}$/.test(callId.slice(responseMessageId.length + 1))) {
    refuse('body', [{ path: 'callId', message: 'expected `<responseMessageId>:<step>`' }])
  }
  return parsed.value
}

/**
 * For a server route: reads the body `projectedSendMessagesRequest` sends (client input: anyone can
 * send the route a body). The whole body is checked (the AI SDK's own `modelMessageSchema` for each
 * message); a body that is not a projected request, or that carries system messages the route does
 * not take from the browser, is refused with `InvalidProjectedRequestError`, never another error.
 *
 * ```ts
 * const request = readProjectedRequest(await req.json(), { instructions: 'You are a support agent.' })
 * const result = streamText({ model, tools, ...request.input })
 * ```
 */
export function readProjectedRequest(body: unknown, options: ReadProjectedRequestOptions = {}): ProjectedRequest {
  const data = parseBody(body, options.maxMessages ?? 10_000)
  const fromBrowser = data.instructions ?? []
  const systemIndexes = data.messages.flatMap((message, index) => (message.role === 'system' ? [index] : []))
  if (options.allowClientInstructions !== true && (fromBrowser.length > 0 || systemIndexes.length > 0)) {
    const at = fromBrowser.length > 0 ? 'instructions' : `messages.${systemIndexes[0]}`
    refuse('instructions', [
      {
        path: at,
        message: 'system messages from the browser are refused: the route gives its own instructions (allowClientInstructions takes the browser’s)',
      },
    ])
  }
  const instructions = [...serverInstructions(options.instructions), ...fromBrowser]
  const extra: { [key: string]: unknown } = {}
  // Defined, not assigned: a `__proto__` member of the body stays a plain member.
  for (const [key, value] of Object.entries(body as object))
    if (!known.has(key)) Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true })
  return {
    id: data.id,
    trigger: data.trigger,
    responseMessageId: data.responseMessageId,
    callId: data.callId,
    instructions: instructions.length === 0 ? undefined : instructions,
    messages: data.messages,
    input: {
      ...(instructions.length === 0 ? {} : { instructions }),
      messages: data.messages,
      ...(systemIndexes.length === 0 ? {} : { allowSystemInMessages: true as const }),
    },
    extra,
  }
}
