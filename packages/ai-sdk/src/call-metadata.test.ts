import fc from 'fast-check'
import type { TextStreamPart, ToolSet, UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { projectedMessageMetadata, reportedCallsOf, stepOwners } from './call-metadata'
import { InvalidCallMetadataError } from './errors'

type Part = TextStreamPart<ToolSet>

const usage = (input: number, output: number, cacheRead?: number) => ({
  inputTokens: input,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: cacheRead, cacheWriteTokens: undefined },
  outputTokens: output,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: input + output,
})

const finishStep = (input: number, output: number, reason: string): Part =>
  ({
    type: 'finish-step',
    response: { id: 'r', timestamp: new Date(0), modelId: 'gpt-x' },
    usage: usage(input, output, 4),
    finishReason: reason,
    rawFinishReason: reason,
    providerMetadata: undefined,
  }) as unknown as Part

/** Feeds parts at the given clock times (ms) and returns the metadata of the last part. */
function run(parts: readonly [number, Part][]): unknown {
  let clock = 1_000
  const metadata = projectedMessageMetadata({ callId: 'm1:0' }, { now: () => clock })
  let last: unknown
  for (const [at, part] of parts) {
    clock = at
    last = metadata({ part })
  }
  return last
}

describe('projectedMessageMetadata', () => {
  it('times the call and each step from the server’s clock, and reports the call’s total usage and every step', () => {
    const report = run([
      [1_000, { type: 'start' } as Part],
      [1_010, { type: 'start-step' } as unknown as Part],
      [1_030, { type: 'tool-input-start', id: 'c', toolName: 'orderStatus' } as unknown as Part],
      [1_050, finishStep(100, 10, 'tool-calls')],
      [1_060, { type: 'start-step' } as unknown as Part],
      [1_100, { type: 'text-delta', id: 't', text: 'done' } as unknown as Part],
      [1_120, finishStep(150, 5, 'stop')],
      [1_125, { type: 'finish', finishReason: 'stop', rawFinishReason: 'stop', totalUsage: usage(250, 15, 8) } as unknown as Part],
    ])
    expect(report).toEqual({
      threadlens: {
        v: 1,
        calls: {
          'm1:0': {
            stopReason: 'stop',
            usage: { inputTokens: 250, outputTokens: 15, cachedInputTokens: 8 },
            firstTokenMs: 30,
            durationMs: 125,
            model: 'gpt-x',
            steps: [
              { stopReason: 'tool-calls', usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 4 }, firstTokenMs: 20, durationMs: 40 },
              { stopReason: 'stop', usage: { inputTokens: 150, outputTokens: 5, cachedInputTokens: 4 }, firstTokenMs: 40, durationMs: 60 },
            ],
          },
        },
      },
    })
  })

  it('reports nothing until the call ends, and an aborted call with the steps it finished', () => {
    const metadata = projectedMessageMetadata({ callId: 'm1:2' }, { now: () => 5 })
    expect(metadata({ part: { type: 'start' } as Part })).toBeUndefined()
    expect(metadata({ part: finishStep(10, 1, 'tool-calls') })).toBeUndefined()
    const aborted = metadata({ part: { type: 'abort' } as Part }) as {
      threadlens: { calls: Record<string, { stopReason: string; usage: unknown; steps: unknown[] }> }
    }
    expect(aborted.threadlens.calls['m1:2']).toMatchObject({
      stopReason: 'abort',
      usage: { inputTokens: 10, outputTokens: 1, cachedInputTokens: 4 },
      steps: [{ stopReason: 'tool-calls' }],
    })
  })

  it('is read back by reportedCallsOf, which keeps only this message’s calls', () => {
    const report = run([[1_001, { type: 'finish', finishReason: 'stop', rawFinishReason: 'stop', totalUsage: usage(3, 2) } as unknown as Part]]) as {
      threadlens: { calls: object }
    }
    const message: UIMessage = {
      id: 'm1',
      role: 'assistant',
      parts: [],
      metadata: {
        threadlens: { ...report.threadlens, calls: { ...report.threadlens.calls, 'm2:0': { stopReason: 'stop', steps: [{ stopReason: 'stop' }] } } },
      },
    }
    const read = reportedCallsOf(message)
    expect(read.problem).toBeUndefined()
    expect([...read.calls.keys()]).toEqual(['m1:0'])
    expect(read.calls.get('m1:0')).toMatchObject({ stopReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } })
  })

  it('never throws on hostile metadata: no report, or one typed problem', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true }), fc.boolean(), (threadlens, wrap) => {
        const message = { id: 'm1', role: 'assistant', parts: [], metadata: wrap ? { threadlens } : threadlens } as UIMessage
        const read = reportedCallsOf(message)
        if (read.problem !== undefined) expect(read.problem).toBeInstanceOf(InvalidCallMetadataError)
        const owner = stepOwners('m1', read)
        for (let step = 0; step < 4; step += 1) expect(owner(step)).toBeLessThanOrEqual(step)
      }),
      { numRuns: 300 },
    )
  })

  it('gives the steps of a call that ran several to that call, and no step to two calls', () => {
    const metadata = {
      threadlens: {
        v: 1,
        calls: {
          'm1:1': { stopReason: 'stop', steps: [{ stopReason: 'tool-calls' }, { stopReason: 'tool-calls' }, { stopReason: 'stop' }] },
          'm1:2': { stopReason: 'stop', steps: [{ stopReason: 'stop' }, { stopReason: 'stop' }] },
          'm1:5': { stopReason: 'stop', steps: [{ stopReason: 'stop' }] },
        },
      },
    }
    const owner = stepOwners('m1', reportedCallsOf({ id: 'm1', role: 'assistant', parts: [], metadata }))
    expect([0, 1, 2, 3, 4, 5, 6].map(owner)).toEqual([0, 1, 1, 1, 4, 5, 6])
  })
})
