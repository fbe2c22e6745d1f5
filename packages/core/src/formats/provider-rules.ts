import { toolNamePattern } from '../entries/tool-name'
import { anthropicToolIdPattern } from './anthropic-messages'
import type { AnthropicMessagesRequest } from './anthropic-messages'
import type { OpenAIChatMessage } from './openai-chat'
import { MAX_OPENAI_CACHE_WRITES } from '../project/cache-breakpoints'

// The checkers read their input as untyped data: they exist to catch what the types cannot promise.
type UntypedObject = { readonly [key: string]: unknown }

function isRecord(value: unknown): value is UntypedObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isPlainObjectJson(text: string): boolean {
  try {
    return isRecord(JSON.parse(text))
  } catch {
    return false
  }
}

const speakerNamePattern = /^[a-zA-Z0-9_-]{1,64}$/

// Content given as parts: a non-empty array of the part types the role accepts, each well formed.
/**
 * Checks a content parts array. `markers` counts `prompt_cache_breakpoint`s on input content; without
 * it (assistant content) a marker is a problem.
 */
function checkOpenAIParts(problems: string[], at: string, content: unknown, allowed: readonly string[], markers?: { count: number }): void {
  if (!Array.isArray(content) || content.length === 0) {
    problems.push(`${at}: content must be a string or a non-empty array of parts`)
    return
  }
  content.forEach((part: unknown, partIndex) => {
    const partAt = `${at}.content[${partIndex}]`
    if (!isRecord(part) || typeof part['type'] !== 'string' || !allowed.includes(part['type'])) {
      problems.push(`${partAt}: must be a part of type ${allowed.map((type) => `"${type}"`).join(' or ')}`)
      return
    }
    if (part['type'] === 'text' && typeof part['text'] !== 'string') problems.push(`${partAt}: text must be a string`)
    const marker = part['prompt_cache_breakpoint']
    if (marker !== undefined) {
      if (markers === undefined) problems.push(`${partAt}: prompt_cache_breakpoint is accepted on input content only (system, user, tool), not here`)
      else markers.count++
      if (!isRecord(marker) || marker['mode'] !== 'explicit' || Object.keys(marker).length !== 1) problems.push(`${partAt}: prompt_cache_breakpoint must be { mode: 'explicit' }`)
    }
    if (part['type'] === 'image_url') {
      const image = part['image_url']
      if (!isRecord(image) || typeof image['url'] !== 'string' || !/^(https?:|data:image\/)/i.test(image['url'])) {
        problems.push(`${partAt}: image_url.url must be an http(s) URL or a data:image/ URL`)
      } else if (image['detail'] !== undefined && image['detail'] !== 'auto' && image['detail'] !== 'low' && image['detail'] !== 'high') {
        problems.push(`${partAt}: image_url.detail must be "auto", "low" or "high"`)
      }
    }
    if (part['type'] === 'file') {
      const file = part['file']
      const data = isRecord(file) ? file['file_data'] : undefined
      const id = isRecord(file) ? file['file_id'] : undefined
      if (!isRecord(file) || (typeof data !== 'string' && typeof id !== 'string')) problems.push(`${partAt}: file needs file_data or file_id`)
      else if (typeof data === 'string' && !data.startsWith('data:')) problems.push(`${partAt}: file.file_data must be a data: URL (base64)`)
      else if (typeof data === 'string' && !/^data:application\/pdf[;,]/i.test(data)) problems.push(`${partAt}: file.file_data must be a PDF: Chat Completions takes only PDF files (send a text file's text as a text part)`)
    }
  })
}

/**
 * Ways a Chat Completions `messages` array breaks the API's ordering and shape rules, one
 * sentence each, prefixed by `messages[i]`; an empty array means the request is valid.
 * Tool messages must directly follow the assistant message whose call they answer (only other
 * tool messages in between), answer each call once, and every call must be answered before
 * the next non-tool message. `prompt_cache_breakpoint` is `{ mode: 'explicit' }`, only on system,
 * user and tool content parts (never on assistant content), at most `MAX_OPENAI_CACHE_WRITES` in the
 * request.
 */
export function openAIChatProblems(messages: readonly OpenAIChatMessage[]): string[] {
  const problems: string[] = []
  // `prompt_cache_breakpoint` markers on input content, counted across the request.
  const markers = { count: 0 }
  // Calls of the nearest assistant-with-tool_calls message while only tool messages have followed it.
  let openCalls: { index: number; unanswered: Set<string>; answered: Set<string> } | undefined
  const closeOpenCalls = (before: string): void => {
    if (openCalls === undefined) return
    for (const id of openCalls.unanswered) problems.push(`messages[${openCalls.index}]: tool call "${id}" is not answered ${before}`)
    openCalls = undefined
  }

  messages.forEach((raw: unknown, index) => {
    const at = `messages[${index}]`
    if (!isRecord(raw)) {
      problems.push(`${at}: not an object`)
      return
    }
    const { role, content } = raw
    if (role !== 'tool') closeOpenCalls(`before the next non-tool message (index ${index})`)
    const name = raw['name']
    if (name !== undefined && (role === 'system' || role === 'user' || role === 'assistant') && (typeof name !== 'string' || !speakerNamePattern.test(name))) {
      problems.push(`${at}: name ${JSON.stringify(name)} must match ${speakerNamePattern.source}`)
    }
    switch (role) {
      case 'system':
        if (typeof content !== 'string') checkOpenAIParts(problems, at, content, ['text'], markers)
        return
      case 'user':
        if (typeof content !== 'string') checkOpenAIParts(problems, at, content, ['text', 'image_url', 'file'], markers)
        return
      case 'assistant': {
        const toolCalls = raw['tool_calls']
        const refusal = raw['refusal']
        if (refusal !== undefined && refusal !== null && typeof refusal !== 'string') problems.push(`${at}: refusal must be a string`)
        const hasRefusal = typeof refusal === 'string'
        if (toolCalls === undefined) {
          if (content === null && hasRefusal) return
          if (typeof content !== 'string' && !Array.isArray(content)) {
            problems.push(`${at}: assistant content must be a string when there are no tool_calls${hasRefusal ? '' : ' or refusal'}`)
          } else if (Array.isArray(content)) checkOpenAIParts(problems, at, content, ['text'])
          return
        }
        if (Array.isArray(content)) checkOpenAIParts(problems, at, content, ['text'])
        else if (content !== null && typeof content !== 'string') problems.push(`${at}: assistant content must be a string or null`)
        if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
          problems.push(`${at}: tool_calls must be a non-empty array when present`)
          return
        }
        const calls = { index, unanswered: new Set<string>(), answered: new Set<string>() }
        openCalls = calls
        toolCalls.forEach((call: unknown, callIndex) => {
          const callAt = `${at}.tool_calls[${callIndex}]`
          if (!isRecord(call) || !isRecord(call['function'])) {
            problems.push(`${callAt}: must be { id, type: 'function', function: { name, arguments } }`)
            return
          }
          const { id, type } = call
          const { name, arguments: argumentsText } = call['function']
          if (type !== 'function') problems.push(`${callAt}: type must be "function"`)
          if (typeof name !== 'string' || !toolNamePattern.test(name)) {
            problems.push(`${callAt}: function.name ${JSON.stringify(name)} must match ${toolNamePattern.source}`)
          }
          if (typeof argumentsText !== 'string' || !isPlainObjectJson(argumentsText)) {
            problems.push(`${callAt}: function.arguments must be JSON text of an object`)
          }
          if (typeof id !== 'string' || id === '') {
            problems.push(`${callAt}: id must be a non-empty string`)
          } else if (calls.unanswered.has(id)) {
            problems.push(`${callAt}: duplicate tool call id "${id}" in one message`)
          } else {
            calls.unanswered.add(id)
          }
        })
        return
      }
      case 'tool': {
        const id = raw['tool_call_id']
        if (typeof content !== 'string') checkOpenAIParts(problems, at, content, ['text'], markers)
        if (typeof id !== 'string') {
          problems.push(`${at}: tool_call_id must be a string`)
        } else if (openCalls === undefined) {
          problems.push(`${at}: tool message "${id}" does not follow an assistant message with tool_calls`)
        } else if (openCalls.answered.has(id)) {
          problems.push(`${at}: tool call "${id}" is answered twice`)
        } else if (!openCalls.unanswered.has(id)) {
          problems.push(`${at}: tool message "${id}" answers no tool call of the assistant message at index ${openCalls.index}`)
        } else {
          openCalls.unanswered.delete(id)
          openCalls.answered.add(id)
        }
        return
      }
      default:
        problems.push(`${at}: unknown role ${JSON.stringify(role)}`)
    }
  })
  closeOpenCalls('before the end of the request')
  if (markers.count > MAX_OPENAI_CACHE_WRITES) problems.push(`messages: ${markers.count} prompt_cache_breakpoint markers; OpenAI writes at most ${MAX_OPENAI_CACHE_WRITES} cache entries per request`)
  return problems
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
  const problems: string[] = []
  const raw: unknown = request
  if (!isRecord(raw)) return ['request: not an object']
  // Cache breakpoints in the order the API reads the request: system, then messages, then the automatic one.
  const breakpoints: { at: string; ttl: unknown }[] = []
  const noteCacheControl = (at: string, holder: UntypedObject): void => {
    const mark = holder['cache_control']
    if (mark === undefined) return
    if (!isRecord(mark) || mark['type'] !== 'ephemeral' || (mark['ttl'] !== undefined && mark['ttl'] !== '5m' && mark['ttl'] !== '1h')) {
      problems.push(`${at}: cache_control must be { type: 'ephemeral', ttl?: '5m' | '1h' }`)
    }
    breakpoints.push({ at, ttl: isRecord(mark) ? (mark['ttl'] ?? '5m') : undefined })
  }
  const system = raw['system']
  if (Array.isArray(system)) {
    if (system.length === 0) problems.push('system: must not be an empty array')
    system.forEach((block: unknown, blockIndex) => {
      const at = `system[${blockIndex}]`
      if (!isRecord(block) || block['type'] !== 'text') {
        problems.push(`${at}: must be a text block`)
        return
      }
      if (typeof block['text'] !== 'string' || block['text'].trim() === '') problems.push(`${at}: empty text block`)
      noteCacheControl(at, block)
    })
  } else if (system !== undefined && typeof system !== 'string') problems.push('system: must be a string or an array of text blocks')
  const messages = raw['messages']
  if (!Array.isArray(messages)) return [...problems, 'messages: must be an array']
  if (messages.length === 0) return [...problems, 'messages: must not be empty']

  const seenToolUseIds = new Set<string>()
  let imageCount = 0
  // tool_use ids of the previous assistant message, waiting for their results in this message.
  let awaiting = new Map<string, boolean>()
  let awaitingFrom = -1
  let previousRole: unknown

  messages.forEach((message: unknown, index) => {
    const at = `messages[${index}]`
    const expected = awaiting
    const expectedFrom = awaitingFrom
    awaiting = new Map()
    const reportUnanswered = (): void => {
      for (const [id, answered] of expected) {
        if (!answered) problems.push(unansweredToolUse(expectedFrom, id))
      }
    }
    if (!isRecord(message)) {
      problems.push(`${at}: not an object`)
      reportUnanswered()
      return
    }
    const { role, content } = message
    if (role !== 'user' && role !== 'assistant') problems.push(`${at}: role must be "user" or "assistant"`)
    if (index === 0 && role !== 'user') problems.push(`${at}: the first message must be from the user`)
    if (index > 0 && role === previousRole) problems.push(`${at}: two ${String(role)} messages in a row; roles must alternate`)
    previousRole = role
    if (!Array.isArray(content) || content.length === 0) {
      problems.push(`${at}: content must be a non-empty array of blocks`)
      reportUnanswered()
      return
    }

    let sawOtherBlock = false
    content.forEach((block: unknown, blockIndex) => {
      const blockAt = `${at}.content[${blockIndex}]`
      if (!isRecord(block)) {
        problems.push(`${blockAt}: not an object`)
        return
      }
      noteCacheControl(blockAt, block)
      switch (block['type']) {
        case 'text': {
          sawOtherBlock = true
          const text = block['text']
          const endsRequest = role === 'assistant' && index === messages.length - 1 && blockIndex === content.length - 1
          if (typeof text !== 'string' || text.trim() === '') problems.push(`${blockAt}: empty text block`)
          else if (endsRequest && text !== text.trimEnd()) {
            problems.push(`${blockAt}: the final assistant message must not end with whitespace`)
          }
          return
        }
        case 'tool_use': {
          sawOtherBlock = true
          const id = block['id']
          if (role !== 'assistant') problems.push(`${blockAt}: tool_use only in assistant messages`)
          if (typeof block['name'] !== 'string' || !toolNamePattern.test(block['name'])) {
            problems.push(`${blockAt}: tool_use name ${JSON.stringify(block['name'])} must match ${toolNamePattern.source}`)
          }
          if (!isRecord(block['input'])) problems.push(`${blockAt}: tool_use input must be an object`)
          if (typeof id !== 'string' || !anthropicToolIdPattern.test(id)) {
            problems.push(`${blockAt}: tool_use id ${JSON.stringify(id)} must match ${anthropicToolIdPattern.source}`)
            return
          }
          if (seenToolUseIds.has(id)) problems.push(`${blockAt}: duplicate tool_use id "${id}"`)
          seenToolUseIds.add(id)
          awaiting.set(id, false)
          awaitingFrom = index
          return
        }
        case 'image':
        case 'document': {
          sawOtherBlock = true
          if (block['type'] === 'image') imageCount += 1
          if (role !== 'user') problems.push(`${blockAt}: ${String(block['type'])} blocks only in user messages`)
          const source = block['source']
          if (!isRecord(source)) {
            problems.push(`${blockAt}: ${String(block['type'])} needs a source`)
            return
          }
          if (source['type'] === 'url') {
            if (typeof source['url'] !== 'string' || !/^https?:/i.test(source['url'])) problems.push(`${blockAt}: source.url must be an http(s) URL`)
          } else if (source['type'] === 'base64') {
            const mediaTypes = block['type'] === 'image' ? anthropicImageMediaTypes : ['application/pdf']
            if (typeof source['media_type'] !== 'string' || !mediaTypes.includes(source['media_type'])) {
              problems.push(`${blockAt}: source.media_type must be one of ${mediaTypes.join(', ')}`)
            }
            if (typeof source['data'] !== 'string' || source['data'] === '') problems.push(`${blockAt}: source.data must be non-empty base64`)
            else {
              const limit = block['type'] === 'image' ? anthropicImageMaxBase64 : anthropicDocumentMaxBase64
              if (source['data'].length > limit) problems.push(`${blockAt}: ${String(block['type'])} data is ${source['data'].length} base64 characters, over the API's ${limit}`)
            }
          } else if (source['type'] === 'text' && block['type'] === 'document') {
            if (source['media_type'] !== 'text/plain' || typeof source['data'] !== 'string') problems.push(`${blockAt}: a text source is { media_type: 'text/plain', data }`)
          } else problems.push(`${blockAt}: unknown source type ${JSON.stringify(source['type'])}`)
          return
        }
        case 'tool_result': {
          const id = block['tool_use_id']
          const resultContent = block['content']
          if (role !== 'user') problems.push(`${blockAt}: tool_result only in user messages`)
          if (sawOtherBlock) problems.push(`${blockAt}: tool_result must come before any other block in its message`)
          if (resultContent !== undefined && typeof resultContent !== 'string' && !Array.isArray(resultContent)) {
            problems.push(`${blockAt}: tool_result content must be a string or an array of blocks`)
          }
          if (block['is_error'] === true && (resultContent === undefined || resultContent === '')) {
            problems.push(`${blockAt}: an error tool_result needs content`)
          }
          if (typeof id !== 'string') {
            problems.push(`${blockAt}: tool_use_id must be a string`)
          } else if (!expected.has(id)) {
            problems.push(`${blockAt}: tool_result "${id}" answers no tool_use of the previous message`)
          } else if (expected.get(id) === true) {
            problems.push(`${blockAt}: tool_use "${id}" is answered twice`)
          } else {
            expected.set(id, true)
          }
          return
        }
        default:
          problems.push(`${blockAt}: unknown block type ${JSON.stringify(block['type'])}`)
      }
    })
    reportUnanswered()
  })
  for (const id of awaiting.keys()) {
    problems.push(unansweredToolUse(awaitingFrom, id))
  }
  noteCacheControl('request', raw)
  if (imageCount > anthropicMaxImages) problems.push(`request: ${imageCount} images; the API takes at most ${anthropicMaxImages} per request (leave older ones out with policy.keepImagesTurns)`)
  if (breakpoints.length > 4) {
    problems.push(`request: ${breakpoints.length} cache_control breakpoints (${breakpoints.map((breakpoint) => breakpoint.at).join(', ')}); at most 4 are allowed`)
  }
  const firstShort = breakpoints.findIndex((breakpoint) => breakpoint.ttl === '5m')
  const lateLong = firstShort === -1 ? undefined : breakpoints.slice(firstShort).find((breakpoint) => breakpoint.ttl === '1h')
  if (lateLong !== undefined) {
    problems.push(`${lateLong.at}: a 1h cache_control after a 5m one (${(breakpoints[firstShort] as { at: string }).at}); longer TTLs must come first`)
  }
  return problems
}

/** The Messages API's documented limits: 5 MB per image and 32 MB per PDF (base64), 100 images per request. */
const anthropicImageMaxBase64 = 5 * 1024 * 1024
const anthropicDocumentMaxBase64 = 32 * 1024 * 1024
const anthropicMaxImages = 100

/** The image media types the Messages API accepts inline. */
const anthropicImageMediaTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

function unansweredToolUse(index: number, id: string): string {
  return `messages[${index}]: tool_use "${id}" is not answered by a tool_result in the next message`
}
