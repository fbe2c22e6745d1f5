// The Anthropic Messages wire format for the fake provider server.
import { type AnthropicMessagesRequest } from '@threadlens/core'
import { anthropicMessagesProblems } from '@threadlens/core/caching'
import { argumentFragments, argumentsText, estimateReplyTokens, estimateRequestTokens, isRecord, pieces, splitProblem } from './fake-script'
import type { FakeFailure, FakeReply, FakeResponse, FakeRoute, FakeStream } from './fake-script'

// Request fields the Messages API documents; anything else gets its "Extra inputs are not permitted".
const knownFields = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'tools',
  'tool_choice',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'thinking',
  'service_tier',
  'container',
  'mcp_servers',
  'cache_control',
])
const toolFields = new Set(['name', 'description', 'input_schema', 'cache_control', 'type'])
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/
const knownVersions = new Set(['2023-06-01', '2023-01-01'])
const chunkSize = 5

function error(status: number, type: string, message: string, headers?: Readonly<Record<string, string>>): FakeResponse {
  return { status, ...(headers === undefined ? {} : { headers }), body: { type: 'error', error: { type, message } } }
}

export const anthropicMessagesRoute: FakeRoute = {
  name: 'anthropic-messages',
  path: '/v1/messages',

  checkHeaders(headers, apiKey) {
    const key = headers['x-api-key']
    if (apiKey !== null && key === undefined) return error(401, 'authentication_error', 'x-api-key header is required')
    if (apiKey !== null && key !== apiKey) return error(401, 'authentication_error', 'invalid x-api-key')
    const version = headers['anthropic-version']
    if (version === undefined) return error(400, 'invalid_request_error', 'anthropic-version: header is required')
    if (!knownVersions.has(version)) return error(400, 'invalid_request_error', `anthropic-version: "${version}" is not a valid version`)
    // Browsers send Origin; the API then refuses calls that did not opt in to direct browser access.
    if (headers['origin'] !== undefined && headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
      return error(401, 'authentication_error', "CORS requests must set 'anthropic-dangerous-direct-browser-access' header")
    }
    return undefined
  },

  notJson() {
    return error(400, 'invalid_request_error', 'There was an error parsing the body of your request: it is not valid JSON')
  },

  problems(body) {
    if (!isRecord(body)) return ['body: Input should be a valid dictionary']
    const problems: string[] = []
    for (const key of Object.keys(body)) if (!knownFields.has(key)) problems.push(`${key}: Extra inputs are not permitted`)
    if (typeof body['model'] !== 'string' || body['model'] === '') problems.push('model: Field required')
    const maxTokens = body['max_tokens']
    if (maxTokens === undefined) problems.push('max_tokens: Field required')
    else if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
      problems.push('max_tokens: Input should be greater than or equal to 1')
    let system = body['system']
    if (Array.isArray(system)) {
      // The API also takes system as text blocks; core's checker knows only the string form.
      if (!system.every((block: unknown) => isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string')) {
        problems.push('system: must be a string or an array of text blocks')
      }
      system = undefined
    }
    problems.push(
      ...anthropicMessagesProblems({ ...(system === undefined ? {} : { system }), messages: body['messages'] } as AnthropicMessagesRequest),
    )
    const tools = body['tools']
    if (tools !== undefined) {
      if (!Array.isArray(tools)) problems.push('tools: Input should be a valid list')
      else
        tools.forEach((tool: unknown, index) => {
          const at = `tools[${index}]`
          if (!isRecord(tool)) {
            problems.push(`${at}: Input should be a valid dictionary`)
            return
          }
          for (const key of Object.keys(tool)) if (!toolFields.has(key)) problems.push(`${at}.custom.${key}: Extra inputs are not permitted`)
          if (typeof tool['name'] !== 'string' || !toolNamePattern.test(tool['name'])) {
            problems.push(`${at}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`)
          }
          if (tool['description'] !== undefined && typeof tool['description'] !== 'string')
            problems.push(`${at}.custom.description: Input should be a valid string`)
          const schema = tool['input_schema']
          if (!isRecord(schema)) problems.push(`${at}.custom.input_schema: Field required`)
          else if (schema['type'] !== 'object') problems.push(`${at}.custom.input_schema.type: Input should be 'object'`)
        })
    }
    if (body['stream'] !== true) problems.push('stream: [fake server] only streaming requests are supported: set stream to true')
    return problems
  },

  invalid(problems) {
    // The API reports the first problem, as a dotted path and a message.
    const first = splitProblem(problems[0] ?? '')
    return error(400, 'invalid_request_error', first.path === '' ? first.text : `${first.path}: ${first.text}`)
  },

  promptTokens(body) {
    return estimateRequestTokens([body['system'], body['messages'], body['tools']])
  },

  contextTooLong(tokens, limit) {
    return error(400, 'invalid_request_error', `prompt is too long: ${tokens} tokens > ${limit} maximum`)
  },

  failure(failure: FakeFailure, body) {
    switch (failure.fail) {
      case 'rate-limit':
        return error(
          429,
          'rate_limit_error',
          'This request would exceed the rate limit for your organization (fake) of 50 requests per minute. Please reduce the prompt length or the maximum tokens requested, or try again later.',
          failure.headers ?? {},
        )
      case 'quota':
        return error(
          400,
          'invalid_request_error',
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        )
      case 'server':
        return error(500, 'api_error', 'Internal server error')
      case 'overloaded':
        return error(529, 'overloaded_error', 'Overloaded')
      case 'context-too-long':
        return this.contextTooLong(210_000, 200_000)
      case 'model-not-found':
        return error(404, 'not_found_error', `model: ${String(body['model'])}`)
      case 'raw':
        return { status: failure.status, headers: failure.headers ?? {}, body: failure.body }
    }
  },

  stream(reply: FakeReply, body, call): FakeStream {
    const frame = (data: { readonly type: string; readonly [key: string]: unknown }): string =>
      `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`
    const inputTokens = reply.inputTokens ?? call.promptTokens
    const cached = reply.cachedInputTokens ?? 0
    const written = reply.cacheWriteInputTokens ?? 0
    const frames: string[] = [
      frame({
        type: 'message_start',
        message: {
          id: `msg_fake${call.number}`,
          type: 'message',
          role: 'assistant',
          model: String(body['model']),
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // Anthropic's input_tokens leaves out cache reads.
          usage: {
            input_tokens: inputTokens - cached - written,
            cache_creation_input_tokens: written,
            cache_read_input_tokens: cached,
            output_tokens: 1,
          },
        },
      }),
      frame({ type: 'ping' }),
    ]
    let index = 0
    const text = reply.text ?? ''
    if (text !== '') {
      frames.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }))
      for (const piece of pieces(text, chunkSize))
        frames.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }))
      frames.push(frame({ type: 'content_block_stop', index }))
      index += 1
    }
    // Anthropic streams content blocks one after another, so interleaving is ignored here.
    const calls = reply.toolCalls ?? []
    const fragments = argumentFragments({ ...reply, interleaveToolCalls: false }, chunkSize)
    calls.forEach((toolCall, position) => {
      const blockIndex = index + position
      frames.push(
        frame({
          type: 'content_block_start',
          index: blockIndex,
          content_block: { type: 'tool_use', id: toolCall.id ?? `toolu_fake_${call.number}_${position}`, name: toolCall.name, input: {} },
        }),
      )
      for (const { fragment } of fragments.filter((item) => item.position === position)) {
        frames.push(frame({ type: 'content_block_delta', index: blockIndex, delta: { type: 'input_json_delta', partial_json: fragment } }))
      }
      if (argumentsText(toolCall) === '')
        frames.push(frame({ type: 'content_block_delta', index: blockIndex, delta: { type: 'input_json_delta', partial_json: '' } }))
      frames.push(frame({ type: 'content_block_stop', index: blockIndex }))
    })

    if (reply.end === 'stall' || reply.end === 'disconnect') return { frames, end: reply.end }
    if (reply.end === 'stream-error') {
      frames.push(frame({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))
      return { frames, end: 'finish' }
    }
    frames.push(
      frame({
        type: 'message_delta',
        delta: { stop_reason: reply.finishReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn'), stop_sequence: null },
        usage: { output_tokens: reply.outputTokens ?? estimateReplyTokens(reply) },
      }),
      frame({ type: 'message_stop' }),
    )
    return { frames, end: 'finish' }
  },
}
