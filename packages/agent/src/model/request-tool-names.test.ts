import { definePolicy, type Entry, project, type ToolSchema } from '@threadlens/core'
import { anthropicMessagesProblems, openAIChatProblems } from '@threadlens/core/caching'
import { InvalidToolNameError } from '@threadlens/core/parts'
import { entryId, threadId } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../tools/define-tool'
import { testCounter, weatherTool } from '../testing/test-projections'
import { anthropicRequestBody } from './anthropic'
import type { ModelStreamEvent } from './model-client'
import { openAIChatRequestBody } from './openai-compatible'
import { requestToolNames, withStoredToolNames } from './request-tool-names'

// Entries as a store holds them from before the tool name rule: built directly, never appended.
const thread = threadId('legacy-names')
const stored = (seq: number, kind: Entry['kind'], payload: unknown, refs: Entry['refs'] = {}): Entry =>
  ({ id: entryId(`e${seq}`), threadId: thread, seq, kind, payload, refs, createdAt: 1 }) as Entry
const entries: Entry[] = [
  stored(0, 'message', { role: 'user', content: 'Search for it' }),
  stored(1, 'tool_call', { name: 'web.search', arguments: { q: 'x' } }, { callId: 'c1', toolCallId: 'call_1' }),
  stored(2, 'tool_result', { name: 'web.search', result: 'found' }, { toolCallId: 'call_1' }),
]
const legacyTool: ToolSchema = { name: 'web.search', parameters: { type: 'object', properties: {} } }

function request() {
  const projection = project({ thread: entries, policy: definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 1_000 }), counter: testCounter })
  return { projection, tools: [weatherTool, legacyTool] }
}

describe('tool names in requests', () => {
  it('sends a stored name that breaks the rule under one stand-in, in messages and tool schemas alike', () => {
    const standIn = requestToolNames(request()).toProvider('web.search')
    expect(standIn).toMatch(/^web_search_[0-9a-f]{8}$/)

    const anthropicBody = anthropicRequestBody(request(), { model: 'm', maxOutputTokens: 10 })
    expect(anthropicMessagesProblems(anthropicBody)).toEqual([])
    expect(anthropicBody.tools?.map((tool) => tool.name)).toEqual(['weather', standIn])
    expect(anthropicBody.messages[1]?.content[0]).toMatchObject({ type: 'tool_use', name: standIn })

    const openAIBody = openAIChatRequestBody(request(), {
      model: 'm',
      maxOutputTokens: undefined,
      maxOutputTokensField: 'max_tokens',
      includeUsage: false,
    })
    expect(openAIChatProblems(openAIBody.messages)).toEqual([])
    expect(openAIBody.tools?.map((tool) => tool.function.name)).toEqual(['weather', standIn])
  })

  it('reads valid names back as they came, and keeps a stand-in for a name the thread would refuse', async () => {
    const toolNames = requestToolNames(request())
    const standIn = toolNames.toProvider('web.search')
    async function* reply(): AsyncGenerator<ModelStreamEvent> {
      yield { type: 'tool-call-start', toolCallId: 'a', name: standIn }
      yield { type: 'tool-call', toolCallId: 'a', name: standIn, arguments: {}, argumentsText: '{}' }
      yield { type: 'tool-call', toolCallId: 'b', name: 'weather', arguments: {}, argumentsText: '{}' }
      yield { type: 'finish', stopReason: 'tool-calls', rawStopReason: 'tool_use' }
    }
    const names: string[] = []
    for await (const event of withStoredToolNames(reply(), toolNames)) if (event.type === 'tool-call') names.push(event.name)
    expect(names).toEqual([standIn, 'weather'])
  })

  it('defineTool refuses a name providers refuse, naming it and the rule', () => {
    const define = () => defineTool({ name: 'get weather', description: '', parameters: z.object({}), execute: () => null })
    expect(define).toThrow(InvalidToolNameError)
    expect(define).toThrow(/"get weather".*\^\[a-zA-Z0-9_-\]\{1,64\}\$/)
  })
})
