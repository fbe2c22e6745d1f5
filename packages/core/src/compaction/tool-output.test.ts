import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import type { ThreadlensEvent } from '../events'
import { definePolicy } from '../policy/policy'
import { reasoningView } from '../views/reasoning-view'
import { toolResultInput } from './tool-output'

describe('toolResultInput', () => {
  const policy = definePolicy({ toolOutputMaxLines: 4, toolOutputMaxBytes: 10_000 })

  it('passes short output through unchanged, JSON included', () => {
    expect(toolResultInput({ name: 'weather', toolCallId: 't', output: { celsius: 3 }, policy })).toEqual({
      kind: 'tool_result',
      payload: { name: 'weather', result: { celsius: 3 } },
      refs: { toolCallId: 't' },
    })
  })

  it('cuts long output before it enters the thread, records the full size, and reports it', () => {
    const events: ThreadlensEvent[] = []
    const log = Array.from({ length: 100 }, (_, line) => `line ${line}`).join('\n')
    const input = toolResultInput({
      name: 'read_file',
      toolCallId: 'r',
      output: log,
      policy,
      refs: { callId: 'c' },
      onEvent: (event) => events.push(event),
    })
    const bytes = (text: string): number => new TextEncoder().encode(text).length
    const kept = 'line 0\nline 1' + 'line 98\nline 99'
    const content = `line 0\nline 1\n[… 96 lines (${bytes(log) - bytes(kept)} bytes) truncated …]\nline 98\nline 99`
    expect(input.payload).toEqual({ name: 'read_file', result: content })
    expect(input.meta).toEqual({ truncated: { by: 'lines', totalLines: 100, totalBytes: bytes(log) } })
    expect(input.refs).toEqual({ callId: 'c', toolCallId: 'r' })
    expect(events).toEqual([
      {
        type: 'tool-output-truncate',
        toolName: 'read_file',
        toolCallId: 'r',
        truncatedBy: 'lines',
        totalLines: 100,
        totalBytes: bytes(log),
        keptBytes: bytes(content),
      },
    ])

    const thread = createThread()
    thread.append({ kind: 'tool_call', payload: { name: 'read_file', arguments: { path: 'a.log' } }, refs: { callId: 'c', toolCallId: 'r' } })
    thread.append(input)
    expect(reasoningView(thread)[0]).toMatchObject({ kind: 'tool', status: 'ok', truncated: { totalBytes: 789, totalLines: 100 } })
  })

  it('cuts long errors the same way', () => {
    const input = toolResultInput({ name: 'x', toolCallId: 'e', error: 'boom\n'.repeat(50), policy: { ...policy, toolOutputKeep: 'head' } })
    expect(input.payload).toMatchObject({ name: 'x', error: expect.stringMatching(/^boom\nboom\nboom\nboom\n\[… 47 lines/) })
    expect(input.meta?.truncated?.totalLines).toBe(51)
  })
})

describe('reasoningView', () => {
  it("shows messages and each tool call with its outcome at the call's place", () => {
    const thread = createThread()
    thread.append({ kind: 'message', payload: { role: 'user', content: 'Weather in Oslo and Bergen?' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } }, refs: { callId: 'c', toolCallId: 'a' } })
    thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Bergen' } }, refs: { callId: 'c', toolCallId: 'b' } })
    thread.append({ kind: 'tool_result', payload: { name: 'weather', error: 'timeout' }, refs: { toolCallId: 'b' } })
    thread.append({ kind: 'message', payload: { role: 'system', content: 'hidden' } })
    expect(reasoningView(thread)).toEqual([
      { kind: 'message', seq: 0, role: 'user', content: 'Weather in Oslo and Bergen?', interrupted: false },
      {
        kind: 'tool',
        seq: 1,
        toolCallId: 'a',
        name: 'weather',
        arguments: { city: 'Oslo' },
        status: 'pending',
        output: undefined,
        resultSeq: undefined,
        truncated: undefined,
      },
      {
        kind: 'tool',
        seq: 2,
        toolCallId: 'b',
        name: 'weather',
        arguments: { city: 'Bergen' },
        status: 'error',
        output: 'timeout',
        resultSeq: 3,
        truncated: undefined,
      },
    ])
  })
})
