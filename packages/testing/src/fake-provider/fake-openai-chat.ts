// The OpenAI Chat Completions wire format for the fake provider server.
import { type OpenAIChatMessage } from '@threadlens/core'
import { openAIChatProblems } from '@threadlens/core/caching'
import { argumentFragments, estimateReplyTokens, estimateRequestTokens, isRecord, pieces, splitProblem } from './fake-script'
import type { FakeFailure, FakeReply, FakeResponse, FakeRoute, FakeStream } from './fake-script'

// Request fields the Chat Completions API documents; anything else is rejected, as the API does.
const knownFields = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tokens',
  'max_completion_tokens',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'stop',
  'n',
  'user',
  'seed',
  'response_format',
  'presence_penalty',
  'frequency_penalty',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'metadata',
  'store',
  'reasoning_effort',
  'service_tier',
  'modalities',
  'prediction',
  'audio',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
])
const functionFields = new Set(['name', 'description', 'parameters', 'strict'])
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/
const chunkSize = 5

function error(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers?: Readonly<Record<string, string>>,
): FakeResponse {
  return { status, ...(headers === undefined ? {} : { headers }), body: { error: { message, type, param, code } } }
}

// OpenAI shows the start and end of a wrong key; the client must still scrub what it can.
function masked(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`
}

export const openAIChatRoute: FakeRoute = {
  name: 'openai-chat',
  path: '/v1/chat/completions',

  checkHeaders(headers, apiKey) {
    if (apiKey === null) return undefined
    const authorization = headers['authorization']
    if (authorization === undefined) {
      return error(
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        'invalid_request_error',
        null,
      )
    }
    const key = /^Bearer (.*)$/.exec(authorization)?.[1] ?? authorization
    if (key !== apiKey) {
      return error(
        401,
        `Incorrect API key provided: ${masked(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      )
    }
    return undefined
  },

  notJson() {
    return error(
      400,
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
      'invalid_request_error',
      null,
    )
  },

  problems(body) {
    if (!isRecord(body)) return ['body: must be a JSON object']
    const problems: string[] = []
    for (const key of Object.keys(body)) if (!knownFields.has(key)) problems.push(`${key}: Unrecognized request argument supplied: ${key}`)
    if (typeof body['model'] !== 'string' || body['model'] === '') problems.push('model: you must provide a model parameter')
    const messages = body['messages']
    if (!Array.isArray(messages) || messages.length === 0) problems.push("messages: [] is too short - 'messages'")
    else {
      messages.forEach((message: unknown, index) => {
        const role = isRecord(message) ? message['role'] : undefined
        if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
          problems.push(`messages[${index}].role: must be one of 'system', 'user', 'assistant', 'tool'`)
        }
      })
      problems.push(...openAIChatProblems(messages as OpenAIChatMessage[]))
    }
    const tools = body['tools']
    if (tools !== undefined) {
      if (!Array.isArray(tools) || tools.length === 0) problems.push("tools: [] is too short - 'tools'")
      else
        tools.forEach((tool: unknown, index) => {
          const at = `tools[${index}]`
          const toolFunction = isRecord(tool) ? tool['function'] : undefined
          if (!isRecord(tool) || tool['type'] !== 'function' || !isRecord(toolFunction)) {
            problems.push(`${at}: must be { type: 'function', function: { name, description?, parameters? } }`)
            return
          }
          for (const key of Object.keys(toolFunction)) if (!functionFields.has(key)) problems.push(`${at}.function.${key}: Unrecognized argument`)
          if (typeof toolFunction['name'] !== 'string' || !toolNamePattern.test(toolFunction['name'])) {
            problems.push(`${at}.function.name: string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`)
          }
          if (toolFunction['description'] !== undefined && typeof toolFunction['description'] !== 'string')
            problems.push(`${at}.function.description: must be a string`)
          if (toolFunction['parameters'] !== undefined && !isRecord(toolFunction['parameters']))
            problems.push(`${at}.function.parameters: must be a JSON Schema object`)
        })
    }
    for (const key of ['max_tokens', 'max_completion_tokens']) {
      const value = body[key]
      if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1))
        problems.push(`${key}: must be an integer of at least 1`)
    }
    if (body['stream'] !== true) problems.push('stream: [fake server] only streaming requests are supported: set stream to true')
    const streamOptions = body['stream_options']
    if (streamOptions !== undefined) {
      if (body['stream'] !== true) problems.push("stream_options: The 'stream_options' parameter is only allowed when 'stream' is enabled.")
      if (!isRecord(streamOptions) || typeof streamOptions['include_usage'] !== 'boolean')
        problems.push('stream_options.include_usage: must be a boolean')
    }
    return problems
  },

  invalid(problems) {
    const first = splitProblem(problems[0] ?? '')
    return error(400, problems.join('\n'), 'invalid_request_error', null, first.path === '' ? null : first.path)
  },

  promptTokens(body) {
    return estimateRequestTokens([body['messages'], body['tools']])
  },

  contextTooLong(tokens, limit) {
    return error(
      400,
      `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      'invalid_request_error',
      'context_length_exceeded',
      'messages',
    )
  },

  failure(failure: FakeFailure, body) {
    const model = String(body['model'])
    switch (failure.fail) {
      case 'rate-limit':
        return error(
          429,
          `Rate limit reached for ${model} in organization org-fake on tokens per min (TPM): Limit 30000, Used 30000, Requested 500. Please try again in 20ms.`,
          'tokens',
          'rate_limit_exceeded',
          null,
          failure.headers ?? {},
        )
      case 'quota':
        return error(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota')
      case 'server':
        return error(500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null)
      case 'overloaded':
        return error(503, 'The engine is currently overloaded, please try again later.', 'server_error', null)
      case 'context-too-long':
        return this.contextTooLong(200_000, 128_000)
      case 'model-not-found':
        return error(404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found')
      case 'raw':
        return { status: failure.status, headers: failure.headers ?? {}, body: failure.body }
    }
  },

  stream(reply: FakeReply, body, call): FakeStream {
    const model = String(body['model'])
    const includeUsage = isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true
    const base = { id: `chatcmpl-fake${call.number}`, object: 'chat.completion.chunk', created: 1_700_000_000, model, system_fingerprint: 'fp_fake' }
    const frame = (delta: unknown, finishReason: string | null = null): string =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}) })}\n\n`

    const frames: string[] = [frame({ role: 'assistant', content: '', refusal: null }), ': keep-alive\n\n']
    for (const text of pieces(reply.text ?? '', chunkSize)) frames.push(frame({ content: text }))
    const calls = reply.toolCalls ?? []
    const ids = calls.map((toolCall, position) => toolCall.id ?? `call_fake_${call.number}_${position}`)
    const started = new Set<number>()
    const start = (position: number): void => {
      if (started.has(position)) return
      started.add(position)
      const toolCall = calls[position]
      if (toolCall === undefined) return
      frames.push(frame({ tool_calls: [{ index: position, id: ids[position], type: 'function', function: { name: toolCall.name, arguments: '' } }] }))
    }
    for (const { position, fragment } of argumentFragments(reply, chunkSize)) {
      start(position)
      frames.push(frame({ tool_calls: [{ index: position, function: { arguments: fragment } }] }))
    }
    calls.forEach((_call, position) => start(position))

    if (reply.end === 'stall' || reply.end === 'disconnect') return { frames, end: reply.end }
    if (reply.end === 'stream-error') {
      // OpenRouter's documented mid-stream error: an error object on a chunk that finishes with `error`.
      frames.push(
        `data: ${JSON.stringify({ ...base, error: { code: 502, message: 'Provider disconnected' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })}\n\n`,
      )
      return { frames, end: 'finish' }
    }
    frames.push(frame({}, reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')))
    if (includeUsage) {
      const inputTokens = reply.inputTokens ?? call.promptTokens
      const outputTokens = reply.outputTokens ?? estimateReplyTokens(reply)
      const usage = {
        prompt_tokens: inputTokens,
        completion_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
        prompt_tokens_details: {
          cached_tokens: reply.cachedInputTokens ?? 0,
          ...(reply.cacheWriteInputTokens === undefined ? {} : { cache_write_tokens: reply.cacheWriteInputTokens }),
          audio_tokens: 0,
        },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      }
      frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`)
    }
    frames.push('data: [DONE]\n\n')
    return { frames, end: 'finish' }
  },
}
