import { toolNamePattern } from '../entries/tool-name'
import { anthropicToolIdPattern } from './anthropic-tool-id'
import { anthropicImageMediaTypes, type AnthropicMessagesRequest } from './anthropic-messages'
import { isRecord, type UntypedObject } from './rule-checks'

/** The Messages API's documented limits: 5 MB per image and 32 MB per PDF (base64), 100 images per request. */
const anthropicImageMaxBase64 = 5 * 1024 * 1024
const anthropicDocumentMaxBase64 = 32 * 1024 * 1024
const anthropicMaxImages = 100

/** The image media types the Messages API accepts inline. */

/** What the check carries across the request. */
interface MessagesCheck {
  readonly problems: string[]
  /** Cache breakpoints in the order the API reads the request: system, then messages, then the automatic one. */
  readonly breakpoints: { at: string; ttl: unknown }[]
  readonly seenToolUseIds: Set<string>
  imageCount: number
  /** tool_use ids of the previous assistant message, waiting for their results in this message. */
  awaiting: Map<string, boolean>
  awaitingFrom: number
  previousRole: unknown
}

/** Where a block sits, and what its message has seen so far. */
interface BlockPlace {
  readonly at: string
  readonly role: unknown
  /** The last block of the last message, from the assistant: it must not end with whitespace. */
  readonly endsRequest: boolean
  /** tool_use ids of the previous message, `true` once answered here. */
  readonly expected: Map<string, boolean>
  /** A block other than `tool_result` came earlier in this message. */
  readonly sawOtherBlock: boolean
}

/**
 * Ways a Messages API request breaks the rules the API answers with a 400, one sentence each,
 * prefixed by `messages[i]`; an empty array means the request is valid. Checks: at least one
 * message, the first from the user, roles alternate, no empty content, no empty or whitespace-only
 * text blocks, `tool_use` only from the assistant with unique ids matching `anthropicToolIdPattern`,
 * names matching `toolNamePattern`
 * and an object `input`, each `tool_use` answered by a `tool_result` in the very next (user)
 * message, `tool_result` blocks only there, once each and before any other block, an error result
 * with content, and a final assistant message not ending in whitespace. Prompt caching: `system` is a
 * string or a non-empty array of non-empty text blocks; `cache_control` is `{ type: 'ephemeral' }` with
 * an optional `ttl` of `5m` or `1h`, on any content block (and at the top
 * level for the automatic mode), at most 4 in all, and a `1h` one never after a `5m` one. Images and
 * documents: only from the user, with a `url` (http/https), `base64` (JPEG, PNG, GIF or WebP images
 * up to 5 MB; PDFs up to 32 MB) or, for documents, `text` source; at most 100 images per request.
 */
export function anthropicMessagesProblems(request: AnthropicMessagesRequest): string[] {
  const raw: unknown = request
  if (!isRecord(raw)) return ['request: not an object']
  const check: MessagesCheck = {
    problems: [],
    breakpoints: [],
    seenToolUseIds: new Set(),
    imageCount: 0,
    awaiting: new Map(),
    awaitingFrom: -1,
    previousRole: undefined,
  }
  const { problems } = check
  checkSystem(check, raw['system'])
  const messages = raw['messages']
  if (!Array.isArray(messages)) return [...problems, 'messages: must be an array']
  if (messages.length === 0) return [...problems, 'messages: must not be empty']
  messages.forEach((message: unknown, index) => checkMessage(check, message, index, index === messages.length - 1))
  for (const id of check.awaiting.keys()) problems.push(unansweredToolUse(check.awaitingFrom, id))
  noteCacheControl(check, 'request', raw)
  if (check.imageCount > anthropicMaxImages)
    problems.push(
      `request: ${check.imageCount} images; the API takes at most ${anthropicMaxImages} per request (leave older ones out with policy.keepImagesTurns)`,
    )
  checkBreakpoints(problems, check.breakpoints)
  return problems
}

function noteCacheControl(check: MessagesCheck, at: string, holder: UntypedObject): void {
  const mark = holder['cache_control']
  if (mark === undefined) return
  if (!isRecord(mark) || mark['type'] !== 'ephemeral' || (mark['ttl'] !== undefined && mark['ttl'] !== '5m' && mark['ttl'] !== '1h')) {
    check.problems.push(`${at}: cache_control must be { type: 'ephemeral', ttl?: '5m' | '1h' }`)
  }
  check.breakpoints.push({ at, ttl: isRecord(mark) ? (mark['ttl'] ?? '5m') : undefined })
}

function checkSystem(check: MessagesCheck, system: unknown): void {
  if (Array.isArray(system)) {
    if (system.length === 0) check.problems.push('system: must not be an empty array')
    system.forEach((block: unknown, blockIndex) => {
      const at = `system[${blockIndex}]`
      if (!isRecord(block) || block['type'] !== 'text') {
        check.problems.push(`${at}: must be a text block`)
        return
      }
      if (typeof block['text'] !== 'string' || block['text'].trim() === '') check.problems.push(`${at}: empty text block`)
      noteCacheControl(check, at, block)
    })
  } else if (system !== undefined && typeof system !== 'string') check.problems.push('system: must be a string or an array of text blocks')
}

function checkMessage(check: MessagesCheck, message: unknown, index: number, last: boolean): void {
  const { problems } = check
  const at = `messages[${index}]`
  const expected = check.awaiting
  const expectedFrom = check.awaitingFrom
  check.awaiting = new Map()
  const reportUnanswered = (): void => {
    for (const [id, answered] of expected) if (!answered) problems.push(unansweredToolUse(expectedFrom, id))
  }
  if (!isRecord(message)) {
    problems.push(`${at}: not an object`)
    reportUnanswered()
    return
  }
  const { role, content } = message
  if (role !== 'user' && role !== 'assistant') problems.push(`${at}: role must be "user" or "assistant"`)
  if (index === 0 && role !== 'user') problems.push(`${at}: the first message must be from the user`)
  if (index > 0 && role === check.previousRole) problems.push(`${at}: two ${String(role)} messages in a row; roles must alternate`)
  check.previousRole = role
  if (!Array.isArray(content) || content.length === 0) {
    problems.push(`${at}: content must be a non-empty array of blocks`)
    reportUnanswered()
    return
  }
  let sawOtherBlock = false
  content.forEach((block: unknown, blockIndex) => {
    const place: BlockPlace = {
      at: `${at}.content[${blockIndex}]`,
      role,
      endsRequest: role === 'assistant' && last && blockIndex === content.length - 1,
      expected,
      sawOtherBlock,
    }
    if (checkBlock(check, block, place, index)) sawOtherBlock = true
  })
  reportUnanswered()
}

/** Checks one content block; `true` when it is a block other than `tool_result`. */
function checkBlock(check: MessagesCheck, block: unknown, place: BlockPlace, index: number): boolean {
  const { problems } = check
  const blockAt = place.at
  if (!isRecord(block)) {
    problems.push(`${blockAt}: not an object`)
    return false
  }
  noteCacheControl(check, blockAt, block)
  switch (block['type']) {
    case 'text': {
      const text = block['text']
      if (typeof text !== 'string' || text.trim() === '') problems.push(`${blockAt}: empty text block`)
      else if (place.endsRequest && text !== text.trimEnd()) problems.push(`${blockAt}: the final assistant message must not end with whitespace`)
      return true
    }
    case 'tool_use':
      checkToolUse(check, block, place, index)
      return true
    case 'image':
    case 'document':
      if (block['type'] === 'image') check.imageCount += 1
      if (place.role !== 'user') problems.push(`${blockAt}: ${String(block['type'])} blocks only in user messages`)
      checkMediaSource(problems, blockAt, block)
      return true
    case 'tool_result':
      checkToolResult(problems, block, place)
      return false
    default:
      problems.push(`${blockAt}: unknown block type ${JSON.stringify(block['type'])}`)
      return false
  }
}

function checkToolUse(check: MessagesCheck, block: UntypedObject, place: BlockPlace, index: number): void {
  const { problems } = check
  const blockAt = place.at
  const id = block['id']
  if (place.role !== 'assistant') problems.push(`${blockAt}: tool_use only in assistant messages`)
  if (typeof block['name'] !== 'string' || !toolNamePattern.test(block['name'])) {
    problems.push(`${blockAt}: tool_use name ${JSON.stringify(block['name'])} must match ${toolNamePattern.source}`)
  }
  if (!isRecord(block['input'])) problems.push(`${blockAt}: tool_use input must be an object`)
  if (typeof id !== 'string' || !anthropicToolIdPattern.test(id)) {
    problems.push(`${blockAt}: tool_use id ${JSON.stringify(id)} must match ${anthropicToolIdPattern.source}`)
    return
  }
  if (check.seenToolUseIds.has(id)) problems.push(`${blockAt}: duplicate tool_use id "${id}"`)
  check.seenToolUseIds.add(id)
  check.awaiting.set(id, false)
  check.awaitingFrom = index
}

function checkMediaSource(problems: string[], blockAt: string, block: UntypedObject): void {
  const source = block['source']
  if (!isRecord(source)) {
    problems.push(`${blockAt}: ${String(block['type'])} needs a source`)
    return
  }
  if (source['type'] === 'url') {
    if (typeof source['url'] !== 'string' || !/^https?:/i.test(source['url'])) problems.push(`${blockAt}: source.url must be an http(s) URL`)
  } else if (source['type'] === 'base64') {
    const mediaTypes: readonly string[] = block['type'] === 'image' ? anthropicImageMediaTypes : ['application/pdf']
    if (typeof source['media_type'] !== 'string' || !mediaTypes.includes(source['media_type'])) {
      problems.push(`${blockAt}: source.media_type must be one of ${mediaTypes.join(', ')}`)
    }
    if (typeof source['data'] !== 'string' || source['data'] === '') problems.push(`${blockAt}: source.data must be non-empty base64`)
    else {
      const limit = block['type'] === 'image' ? anthropicImageMaxBase64 : anthropicDocumentMaxBase64
      if (source['data'].length > limit)
        problems.push(`${blockAt}: ${String(block['type'])} data is ${source['data'].length} base64 characters, over the API's ${limit}`)
    }
  } else if (source['type'] === 'text' && block['type'] === 'document') {
    if (source['media_type'] !== 'text/plain' || typeof source['data'] !== 'string')
      problems.push(`${blockAt}: a text source is { media_type: 'text/plain', data }`)
  } else problems.push(`${blockAt}: unknown source type ${JSON.stringify(source['type'])}`)
}

function checkToolResult(problems: string[], block: UntypedObject, place: BlockPlace): void {
  const blockAt = place.at
  const id = block['tool_use_id']
  const resultContent = block['content']
  if (place.role !== 'user') problems.push(`${blockAt}: tool_result only in user messages`)
  if (place.sawOtherBlock) problems.push(`${blockAt}: tool_result must come before any other block in its message`)
  if (resultContent !== undefined && typeof resultContent !== 'string' && !Array.isArray(resultContent)) {
    problems.push(`${blockAt}: tool_result content must be a string or an array of blocks`)
  }
  if (block['is_error'] === true && (resultContent === undefined || resultContent === ''))
    problems.push(`${blockAt}: an error tool_result needs content`)
  if (typeof id !== 'string') {
    problems.push(`${blockAt}: tool_use_id must be a string`)
  } else if (!place.expected.has(id)) {
    problems.push(`${blockAt}: tool_result "${id}" answers no tool_use of the previous message`)
  } else if (place.expected.get(id) === true) {
    problems.push(`${blockAt}: tool_use "${id}" is answered twice`)
  } else {
    place.expected.set(id, true)
  }
}

/** At most 4 breakpoints, and a `1h` one never after a `5m` one. */
function checkBreakpoints(problems: string[], breakpoints: readonly { at: string; ttl: unknown }[]): void {
  if (breakpoints.length > 4) {
    problems.push(
      `request: ${breakpoints.length} cache_control breakpoints (${breakpoints.map((breakpoint) => breakpoint.at).join(', ')}); at most 4 are allowed`,
    )
  }
  const firstShort = breakpoints.findIndex((breakpoint) => breakpoint.ttl === '5m')
  const lateLong = firstShort === -1 ? undefined : breakpoints.slice(firstShort).find((breakpoint) => breakpoint.ttl === '1h')
  if (lateLong !== undefined) {
    problems.push(
      `${lateLong.at}: a 1h cache_control after a 5m one (${(breakpoints[firstShort] as { at: string }).at}); longer TTLs must come first`,
    )
  }
}

function unansweredToolUse(index: number, id: string): string {
  return `messages[${index}]: tool_use "${id}" is not answered by a tool_result in the next message`
}
