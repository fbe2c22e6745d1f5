import { createTokenCounter, type EntryInput, type TokenCounter } from '@threadlens/core'
import { calibrationVerdict, type TokenCalibration } from '@threadlens/core/calls'
import { modelInfo, policyForModel, registerModel } from '@threadlens/core/models'
import { createMemoryBackedStores } from '@threadlens/store'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAICompatible } from '../model/openai-compatible'
import { type FakeProviderServer, startFakeProviderServer } from '@threadlens/testing/node'
import { seededRandom as random } from '@threadlens/testing'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'

// A model without a public tokenizer: threadlens counts it with the heuristic, while its server
// counts with cl100k plus the chat format's per-message overhead. The calibration learns the
// difference from the usage each answer reports.
const modelId = 'calibration-test-llama'
const window = 8_000
const perMessageOverhead = 4
const replyPriming = 3
const seed = 20261123

let cl100k: TokenCounter
let heuristic: TokenCounter
let server: FakeProviderServer
let unregister: () => void

function providerCount(body: { readonly [key: string]: unknown }): number {
  const messages = body['messages'] as readonly { content?: unknown; tool_calls?: unknown }[]
  let total = replyPriming
  for (const message of messages) {
    total += perMessageOverhead + cl100k.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''))
    if (message.tool_calls !== undefined) total += cl100k.count(JSON.stringify(message.tool_calls))
  }
  return total
}

beforeAll(async () => {
  cl100k = await createTokenCounter('cl100k_base')
  heuristic = await createTokenCounter('heuristic')
  unregister = registerModel({
    id: modelId,
    provider: 'meta',
    contextWindow: window,
    maxOutputTokens: 1_000,
    tokenizer: 'heuristic',
    exactTokenizer: false,
    safetyMargin: 0.15,
  })
  server = await startFakeProviderServer({
    apiKey: 'test-key',
    whenEmpty: { text: 'Noted.', outputTokens: 2 },
    countPromptTokens: (_route, body) => providerCount(body),
  })
})

afterAll(async () => {
  unregister()
  await server.close()
})

// Seeded prose with some numbers, code and JSON: the mix a chat history holds.
const words =
  'the harbour boats ferry weather north wind morning tide captain market fish bread coffee island bridge river station ticket journey evening light stone church museum street garden winter summer people travel question answer reason plan'.split(
    ' ',
  )
function message(next: () => number): string {
  const parts: string[] = []
  const sentences = 2 + Math.floor(next() * 8)
  for (let sentence = 0; sentence < sentences; sentence++) {
    const length = 6 + Math.floor(next() * 14)
    const chosen = Array.from({ length }, () => words[Math.floor(next() * words.length)] as string)
    if (next() < 0.2) chosen.push(String(Math.floor(next() * 100_000)))
    parts.push(`${chosen.join(' ')}.`)
  }
  if (next() < 0.15) parts.push(`\`\`\`js\nconst total = items.reduce((sum, item) => sum + item.price * ${Math.floor(next() * 9) + 1}, 0)\n\`\`\``)
  if (next() < 0.15) parts.push(JSON.stringify({ city: words[Math.floor(next() * words.length)], days: Math.floor(next() * 10), ok: next() < 0.5 }))
  return parts.join(' ')
}
/**
 * A history that fills `share` of a local token budget without going over it, so the session sends
 * all of it (nothing dropped, nothing compacted) and the server counts a request at the edge.
 */
function history(threadSeed: number, localBudget: number, share: number): { inputs: EntryInput[]; question: string } {
  const next = random(threadSeed)
  const question = message(next)
  // Room for the question and the chat format the local count includes per message.
  let room = Math.floor(localBudget * share) - heuristic.count(question) - 16
  const inputs: EntryInput[] = []
  for (;;) {
    const user = message(next)
    const assistant = message(next)
    const cost = heuristic.count(user) + heuristic.count(assistant) + 16
    if (cost > room) break
    room -= cost
    inputs.push(
      { kind: 'message', payload: { role: 'user', content: user } },
      { kind: 'message', payload: { role: 'assistant', content: assistant } },
    )
  }
  return { inputs, question }
}

describe(`calibrating a heuristic counter against a server that counts with cl100k (seed ${seed})`, () => {
  it('after 20 calls the budget is within 3% of what the server counts on unseen threads, and never over it', async () => {
    const stores = createMemoryBackedStores()
    const client = openAICompatible({ baseURL: server.baseURL, apiKey: 'test-key', model: modelId, maxRetries: 0 })
    // The provider's prompt limit: the window less the reply the policy reserves.
    const base = policyForModel(modelId)
    const providerPromptLimit = window - base.reserveOutputTokens
    const overrides = { summarizeAtRatio: 1 }
    const updates: SessionEvent[] = []
    async function call(
      threadSeed: number,
    ): Promise<{ local: number; reported: number; calibration: TokenCalibration | undefined; compacted: boolean }> {
      const { id } = await stores.threads.create()
      const calibration = await stores.calls.calibration(modelId, heuristic.id)
      const policy = policyForModel(modelId, overrides, { calibration })
      const share = 0.9 + random(threadSeed + 7)() * 0.095
      const { inputs, question } = history(threadSeed, policy.maxInputTokens - policy.reserveOutputTokens, share)
      await stores.threads.appendMany(id, inputs)
      const session = createSession({
        threads: stores.threads,
        threadId: id,
        model: client,
        counter: heuristic,
        callLog: stores.calls,
        calibratedPolicy: (known) => policyForModel(modelId, overrides, { calibration: known }),
      })
      let compacted = false
      for await (const event of session.send(question)) {
        if (event.type === 'calibration-update') updates.push(event)
        if (event.type === 'compaction-start') compacted = true
        if (event.type === 'error') throw event.error
      }
      session.close()
      const reply = (await stores.threads.load(id)).entries.at(-1)
      const record = reply?.meta?.call
      if (record?.inputTokens === undefined || record.localInputTokens === undefined) throw new Error('the call reported no usage')
      return { local: record.localInputTokens, reported: record.inputTokens, calibration, compacted }
    }

    const training: Awaited<ReturnType<typeof call>>[] = []
    for (let index = 0; index < 20; index++) training.push(await call(seed + index * 101))
    expect(updates).toHaveLength(20)
    const learned = await stores.calls.calibration(modelId, heuristic.id)
    expect(learned?.calls).toBe(20)
    const verdict = calibrationVerdict(learned, { exact: false, defaultMargin: modelInfo(modelId).safetyMargin })
    expect(verdict.source).toBe('calibrated')

    const errors: number[] = []
    const usage: number[] = []
    for (let index = 0; index < 10; index++) {
      const result = await call(seed + 50_000 + index * 7)
      const planned = result.local * (result.calibration?.ratio ?? Number.NaN)
      errors.push(Math.abs(planned - result.reported) / result.reported)
      usage.push(result.reported / providerPromptLimit)
      // Sent whole, at the edge of the calibrated budget, and never over the provider's own limit.
      expect(result.compacted).toBe(false)
      expect(result.reported).toBeLessThanOrEqual(providerPromptLimit)
    }
    console.info(
      `[calibration] ratio ${learned?.ratio.toFixed(4)} ± ${learned?.spread.toFixed(4)}; budget error on unseen threads max ${(Math.max(...errors) * 100).toFixed(2)}%; ` +
        `window used ${(Math.min(...usage) * 100).toFixed(1)}–${(Math.max(...usage) * 100).toFixed(1)}% (the fixed 15% margin: ${(((training[0]?.reported ?? 0) / providerPromptLimit) * 100).toFixed(1)}%)`,
    )
    expect(Math.max(...errors)).toBeLessThanOrEqual(0.03)
    // The calibrated budget uses more of the window than the fixed margin did on the first call.
    expect(Math.min(...usage)).toBeGreaterThan((training[0]?.reported ?? 0) / providerPromptLimit)
  }, 60_000)
})

describe('an exact tokenizer is checked too', () => {
  async function mismatchAfter(count: (body: { readonly [key: string]: unknown }) => number) {
    const o200k = await createTokenCounter('o200k_base')
    const exactServer = await startFakeProviderServer({
      apiKey: 'test-key',
      whenEmpty: { text: 'Noted.', outputTokens: 2 },
      countPromptTokens: (_route, body) => count(body),
    })
    try {
      const stores = createMemoryBackedStores()
      const client = openAICompatible({ baseURL: exactServer.baseURL, apiKey: 'test-key', model: 'gpt-4o', maxRetries: 0 })
      let last: Extract<SessionEvent, { type: 'calibration-update' }> | undefined
      for (let index = 0; index < 6; index++) {
        const { id } = await stores.threads.create()
        const next = random(seed + index)
        await stores.threads.appendMany(id, [
          { kind: 'message', payload: { role: 'user', content: message(next) } },
          { kind: 'message', payload: { role: 'assistant', content: message(next) } },
        ])
        const session = createSession({
          threads: stores.threads,
          threadId: id,
          model: client,
          counter: o200k,
          callLog: stores.calls,
          policy: policyForModel('gpt-4o'),
        })
        for await (const event of session.send(message(next))) if (event.type === 'calibration-update') last = event
        session.close()
      }
      return last
    } finally {
      await exactServer.close()
    }
  }
  const messagesOf = (body: { readonly [key: string]: unknown }) => body['messages'] as readonly { content?: unknown }[]

  it('the same encoding plus the chat format’s per-message overhead is no mismatch', async () => {
    const o200k = await createTokenCounter('o200k_base')
    const update = await mismatchAfter((body) => messagesOf(body).reduce((total, each) => total + 4 + o200k.count(String(each.content ?? '')), 3))
    expect(update?.calibration.calls).toBe(6)
    expect(update?.mismatch).toBeUndefined()
  })

  it('a server that counts differently (another tokenizer) is surfaced on every update', async () => {
    const update = await mismatchAfter((body) =>
      messagesOf(body).reduce((total, each) => total + 4 + Math.ceil(String(each.content ?? '').length / 2.5), 3),
    )
    expect(update?.mismatch).toBeDefined()
    expect(update?.mismatch?.tokensPerMessage).toBeGreaterThan(8)
  })
})
