import { toolNamePattern } from '../entries/tool-name'
import { MAX_OPENAI_CACHE_WRITES } from '../caching/cache-breakpoints'
import type { OpenAIChatMessage } from './openai-chat'
import { isPlainObjectJson, isRecord, type UntypedObject } from './rule-checks'

const speakerNamePattern = /^[a-zA-Z0-9_-]{1,64}$/

/** Calls of the nearest assistant-with-tool_calls message while only tool messages have followed it. */
interface OpenCalls {
  readonly index: number
  readonly unanswered: Set<string>
  readonly answered: Set<string>
}

/** What the check carries from message to message. */
interface ChatCheck {
  readonly problems: string[]
  /** `prompt_cache_breakpoint` markers on input content, counted across the request. */
  readonly markers: { count: number }
  openCalls: OpenCalls | undefined
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
  const check: ChatCheck = { problems: [], markers: { count: 0 }, openCalls: undefined }
  messages.forEach((raw: unknown, index) => checkMessage(check, raw, index))
  closeOpenCalls(check, 'before the end of the request')
  const { problems, markers } = check
  if (markers.count > MAX_OPENAI_CACHE_WRITES)
    problems.push(
      `messages: ${markers.count} prompt_cache_breakpoint markers; OpenAI writes at most ${MAX_OPENAI_CACHE_WRITES} cache entries per request`,
    )
  return problems
}

function closeOpenCalls(check: ChatCheck, before: string): void {
  const open = check.openCalls
  if (open === undefined) return
  for (const id of open.unanswered) check.problems.push(`messages[${open.index}]: tool call "${id}" is not answered ${before}`)
  check.openCalls = undefined
}

function checkMessage(check: ChatCheck, raw: unknown, index: number): void {
  const { problems, markers } = check
  const at = `messages[${index}]`
  if (!isRecord(raw)) {
    problems.push(`${at}: not an object`)
    return
  }
  const { role, content } = raw
  if (role !== 'tool') closeOpenCalls(check, `before the next non-tool message (index ${index})`)
  const name = raw['name']
  if (
    name !== undefined &&
    (role === 'system' || role === 'user' || role === 'assistant') &&
    (typeof name !== 'string' || !speakerNamePattern.test(name))
  ) {
    problems.push(`${at}: name ${JSON.stringify(name)} must match ${speakerNamePattern.source}`)
  }
  switch (role) {
    case 'system':
      if (typeof content !== 'string') checkParts(problems, at, content, ['text'], markers)
      return
    case 'user':
      if (typeof content !== 'string') checkParts(problems, at, content, ['text', 'image_url', 'file'], markers)
      return
    case 'assistant':
      checkAssistant(check, at, raw, index)
      return
    case 'tool':
      checkToolMessage(check, at, raw)
      return
    default:
      problems.push(`${at}: unknown role ${JSON.stringify(role)}`)
  }
}

function checkAssistant(check: ChatCheck, at: string, raw: UntypedObject, index: number): void {
  const { problems } = check
  const { content } = raw
  const toolCalls = raw['tool_calls']
  const refusal = raw['refusal']
  if (refusal !== undefined && refusal !== null && typeof refusal !== 'string') problems.push(`${at}: refusal must be a string`)
  const hasRefusal = typeof refusal === 'string'
  if (toolCalls === undefined) {
    if (content === null && hasRefusal) return
    if (typeof content !== 'string' && !Array.isArray(content)) {
      problems.push(`${at}: assistant content must be a string when there are no tool_calls${hasRefusal ? '' : ' or refusal'}`)
    } else if (Array.isArray(content)) checkParts(problems, at, content, ['text'])
    return
  }
  if (Array.isArray(content)) checkParts(problems, at, content, ['text'])
  else if (content !== null && typeof content !== 'string') problems.push(`${at}: assistant content must be a string or null`)
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
    problems.push(`${at}: tool_calls must be a non-empty array when present`)
    return
  }
  const calls: OpenCalls = { index, unanswered: new Set<string>(), answered: new Set<string>() }
  check.openCalls = calls
  toolCalls.forEach((call: unknown, callIndex) => checkToolCall(problems, `${at}.tool_calls[${callIndex}]`, call, calls))
}

function checkToolCall(problems: string[], callAt: string, call: unknown, calls: OpenCalls): void {
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
}

function checkToolMessage(check: ChatCheck, at: string, raw: UntypedObject): void {
  const { problems, openCalls } = check
  const id = raw['tool_call_id']
  if (typeof raw['content'] !== 'string') checkParts(problems, at, raw['content'], ['text'], check.markers)
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
}

/**
 * Checks a content parts array: a non-empty array of the part types the role accepts, each well
 * formed. `markers` counts `prompt_cache_breakpoint`s on input content; without it (assistant
 * content) a marker is a problem.
 */
function checkParts(problems: string[], at: string, content: unknown, allowed: readonly string[], markers?: { count: number }): void {
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
      if (!isRecord(marker) || marker['mode'] !== 'explicit' || Object.keys(marker).length !== 1)
        problems.push(`${partAt}: prompt_cache_breakpoint must be { mode: 'explicit' }`)
    }
    if (part['type'] === 'image_url') checkImagePart(problems, partAt, part['image_url'])
    if (part['type'] === 'file') checkFilePart(problems, partAt, part['file'])
  })
}

function checkImagePart(problems: string[], partAt: string, image: unknown): void {
  if (!isRecord(image) || typeof image['url'] !== 'string' || !/^(https?:|data:image\/)/i.test(image['url'])) {
    problems.push(`${partAt}: image_url.url must be an http(s) URL or a data:image/ URL`)
  } else if (image['detail'] !== undefined && image['detail'] !== 'auto' && image['detail'] !== 'low' && image['detail'] !== 'high') {
    problems.push(`${partAt}: image_url.detail must be "auto", "low" or "high"`)
  }
}

function checkFilePart(problems: string[], partAt: string, file: unknown): void {
  const data = isRecord(file) ? file['file_data'] : undefined
  const id = isRecord(file) ? file['file_id'] : undefined
  if (!isRecord(file) || (typeof data !== 'string' && typeof id !== 'string')) problems.push(`${partAt}: file needs file_data or file_id`)
  else if (typeof data === 'string' && !data.startsWith('data:')) problems.push(`${partAt}: file.file_data must be a data: URL (base64)`)
  else if (typeof data === 'string' && !/^data:application\/pdf[;,]/i.test(data))
    problems.push(`${partAt}: file.file_data must be a PDF: Chat Completions takes only PDF files (send a text file's text as a text part)`)
}
