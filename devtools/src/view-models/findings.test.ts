import {
  createThread,
  createTokenCounter,
  definePolicy,
  project,
  withPolicy,
  type ContextPolicy,
  type Thread,
  type TokenCounter,
} from '@threadlens/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { findings, type Finding } from './findings'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

const image = `sha256-${'1'.repeat(64)}`

/** A thread of `turns` questions, each answered after a `lookup` tool call whose result is `result(turn)`. */
function toolThread(
  turns: number,
  result: (turn: number) => string,
  options: { readonly imageAt?: number; readonly query?: (turn: number) => string } = {},
): Thread {
  const thread = createThread({ id: 'findings', now: () => 1 })
  for (let turn = 0; turn < turns; turn++) {
    const text = `question ${turn}`
    thread.append({
      kind: 'message',
      payload:
        options.imageAt === turn
          ? {
              role: 'user',
              content: text,
              parts: [
                { type: 'text', text },
                { type: 'image', source: { type: 'attachment', id: image, mediaType: 'image/png', bytes: 40_000 } },
              ],
            }
          : { role: 'user', content: text },
      refs: { requestId: `r${turn}` },
    })
    thread.append({
      kind: 'tool_call',
      payload: { name: 'lookup', arguments: { q: options.query?.(turn) ?? `q${turn}` } },
      refs: { requestId: `r${turn}`, callId: `c${turn}`, toolCallId: `t${turn}` },
    })
    thread.append({ kind: 'tool_result', payload: { name: 'lookup', result: result(turn) }, refs: { requestId: `r${turn}`, toolCallId: `t${turn}` } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: `answer ${turn}` }, refs: { requestId: `r${turn}` } })
  }
  return thread
}

function find(thread: Thread, policy: ContextPolicy, toolNames: readonly string[] = []): Finding[] {
  const { meta } = project({
    thread,
    policy,
    counter,
    tools: toolNames.map((name) => ({
      name,
      description: `the ${name} tool`,
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    })),
  })
  return findings({ meta, entries: thread.entries, entryAt: (seq) => thread.bySeq(seq), toolNames, policy })
}

const of = (list: readonly Finding[], kind: Finding['kind']) => list.filter((item) => item.kind === kind)

describe('findings', () => {
  it('lists the largest tool results, biggest first, each with its entry and the tokens it is sent with', () => {
    const thread = toolThread(6, (turn) => (turn === 2 ? 'row '.repeat(4000) : turn === 4 ? 'row '.repeat(2500) : 'ok'))
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000, reserveOutputTokens: 1000 })
    const { meta } = project({ thread, policy, counter })
    const list = find(thread, policy)
    const large = of(list, 'large-tool-result')
    expect(large.map((item) => item.seq)).toEqual([10, 18])
    for (const item of large) {
      expect(item.tokens).toBe(meta.messages.find((message) => message.seqs.includes(item.seq as number))?.tokens)
      expect(item.text).toContain(`#${item.seq} (lookup)`)
    }
    // Small results are not listed; the list is biggest first.
    expect(list.map((item) => item.tokens ?? 0)).toEqual([...list.map((item) => item.tokens ?? 0)].sort((a, b) => b - a))
  })

  it('finds a tool result sent twice with the same output, pointing at the older copy, and not once the policy dedupes it', () => {
    const same = (turn: number) => (turn === 0 || turn === 2 ? 'the same long answer '.repeat(100) : `answer ${turn}`)
    const thread = toolThread(4, same, { query: (turn) => (turn === 0 || turn === 2 ? 'same' : `q${turn}`) })
    const repeated = of(find(thread, definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 })), 'repeated')
    expect(repeated).toHaveLength(1)
    expect(repeated[0]?.seq).toBe(2)
    expect(repeated[0]?.text).toContain('#2, #10')
    expect(repeated[0]?.text).toContain('dedupeToolResults: true')
    // Asked with other arguments, the same output cannot be deduped by the policy, and the finding says so.
    expect(of(find(toolThread(4, same), definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 })), 'repeated')[0]?.text).toContain(
      'arguments differ',
    )
    expect(
      of(find(thread, definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000, dedupeToolResults: true, keepLastTurns: 1 })), 'repeated'),
    ).toEqual([])
  })

  it('finds an image still sent turns after its question, and none once keepImagesTurns leaves it out', () => {
    const thread = toolThread(4, () => 'ok', { imageAt: 0 })
    const stale = of(find(thread, definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 })), 'stale-image')
    expect(stale.map((item) => item.seq)).toEqual([0])
    expect(stale[0]?.tokens).toBeGreaterThan(0)
    expect(stale[0]?.text).toContain('keepImagesTurns: 2')
    expect(of(find(thread, definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000, keepImagesTurns: 1 })), 'stale-image')).toEqual([])
    // An image of the newest turn is in use.
    expect(
      of(
        find(
          toolThread(2, () => 'ok', { imageAt: 1 }),
          definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 }),
        ),
        'stale-image',
      ),
    ).toEqual([])
  })

  it('names the tool definitions the thread never called, with their share of the schema tokens', () => {
    const thread = toolThread(2, () => 'ok')
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 })
    const unused = of(find(thread, policy, ['lookup', 'weather', 'calendar']), 'unused-tools')
    expect(unused).toHaveLength(1)
    expect(unused[0]?.text).toContain('weather, calendar')
    expect(unused[0]?.text).not.toContain('lookup,')
    expect(unused[0]?.seq).toBeUndefined()
    expect(of(find(thread, policy, ['lookup']), 'unused-tools')).toEqual([])
    expect(of(find(thread, policy), 'unused-tools')).toEqual([])
  })

  it('puts near-overflow first when the request is within 5% of the budget, and says nothing of it with room to spare', () => {
    const thread = toolThread(3, () => 'row '.repeat(200))
    const roomy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000, reserveOutputTokens: 1000 })
    const total = project({ thread, policy: roomy, counter }).meta.tokens.total
    expect(of(find(thread, roomy), 'near-overflow')).toEqual([])
    const tight = definePolicy({ tokenizer: 'heuristic', maxInputTokens: total + 1000 + Math.floor(total * 0.02), reserveOutputTokens: 1000 })
    const list = find(thread, tight)
    expect(list[0]?.kind).toBe('near-overflow')
    expect(list[0]?.text).toContain('Near overflow')
  })

  it("estimates what masking older tool results would save, close to what the masked policy's projection saves", () => {
    const thread = toolThread(8, (turn) => `result ${turn} `.repeat(400))
    const transparent = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 64_000, keepLastTurns: 2 })
    const saving = of(find(thread, transparent), 'policy-saving')
    expect(saving).toHaveLength(1)
    expect(saving[0]?.text).toContain("toolTrace: 'masked'")
    expect(saving[0]?.text).toContain('6 tool results older than the last 2 turns')
    const masked = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 64_000, keepLastTurns: 2, toolTrace: 'masked' })
    const actual =
      project({ thread, policy: transparent, counter }).meta.tokens.total - project({ thread, policy: masked, counter }).meta.tokens.total
    expect(Math.abs((saving[0]?.tokens ?? 0) - actual) / actual).toBeLessThan(0.1)
    // A policy that masks already has nothing to gain from it.
    expect(of(find(thread, masked), 'policy-saving')).toEqual([])
  })

  it('finds nothing in a thread that wastes nothing, and copes with an empty one', () => {
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 32_000 })
    expect(
      find(
        toolThread(2, () => 'ok'),
        policy,
        ['lookup'],
      ),
    ).toEqual([])
    expect(find(createThread({ id: 'empty' }), policy)).toEqual([])
  })

  it('suggests a policy change that, applied, removes the finding and sends fewer tokens', () => {
    const thread = toolThread(8, (turn) => (turn === 1 || turn === 3 ? 'the same long answer '.repeat(200) : `result ${turn} `.repeat(300)), {
      imageAt: 0,
      query: (turn) => (turn === 1 || turn === 3 ? 'same' : `q${turn}`),
    })
    const policy = definePolicy({ tokenizer: 'heuristic', maxInputTokens: 64_000, keepLastTurns: 2 })
    const before = project({ thread, policy, counter }).meta.tokens.total
    const suggested = find(thread, policy).filter((item) => item.change !== undefined)
    expect(suggested.map((item) => item.kind).sort()).toEqual(['policy-saving', 'repeated', 'stale-image'])
    for (const item of suggested) {
      const changed = withPolicy(policy, item.change?.options ?? {})
      expect(
        find(thread, changed).map((other) => other.id),
        item.id,
      ).not.toContain(item.id)
      expect(project({ thread, policy: changed, counter }).meta.tokens.total, item.id).toBeLessThan(before)
    }
  })
})
