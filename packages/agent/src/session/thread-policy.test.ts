import { createTokenCounter, definePolicy, InvalidPolicyError, type JsonObject, type TokenCounter } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { beforeAll, describe, expect, it } from 'vitest'
import { scriptedModel } from '../model/scripted-model'
import { createSession } from './create-session'
import type { SessionEvent } from './session-events'
import { threadPolicyOf } from './thread-policy'

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

/** What `threadPolicyOf` throws for `metadata`, or `undefined` when it does not throw. */
function thrownBy(metadata: JsonObject): unknown {
  try {
    threadPolicyOf({ metadata })
  } catch (error) {
    return error
  }
  return undefined
}

describe('threadPolicyOf: the policy a thread keeps in metadata.policy', () => {
  it('reads stored policy options as a complete, frozen policy, as definePolicy makes it', () => {
    const policy = threadPolicyOf({ metadata: { policy: { maxInputTokens: 5000, reserveOutputTokens: 500, toolTrace: 'masked' } } })
    expect(policy).toEqual(definePolicy({ maxInputTokens: 5000, reserveOutputTokens: 500, toolTrace: 'masked' }))
    expect(Object.isFrozen(policy)).toBe(true)
  })

  it('reads an empty object as the default policy', () => {
    expect(threadPolicyOf({ metadata: { policy: {} } })).toEqual(definePolicy())
  })

  it('is undefined when the thread keeps none: no record, no field, or null', () => {
    expect(threadPolicyOf(undefined)).toBeUndefined()
    expect(threadPolicyOf({ metadata: {} })).toBeUndefined()
    expect(threadPolicyOf({ metadata: { other: 1 } })).toBeUndefined()
    expect(threadPolicyOf({ metadata: { policy: null } })).toBeUndefined()
  })

  it('throws InvalidPolicyError naming the bad field under metadata.policy', () => {
    const error = thrownBy({ policy: { maxInputTokens: -1 } })
    expect(InvalidPolicyError.isInstance(error)).toBe(true)
    const invalid = error as InvalidPolicyError
    expect(invalid.issues).toHaveLength(1)
    expect(invalid.issues[0]?.path).toBe('metadata.policy.maxInputTokens')
    expect(invalid.message).toMatch(/^Invalid policy: metadata\.policy\.maxInputTokens: /)
    expect(InvalidPolicyError.isInstance(invalid.cause)).toBe(true)
  })

  it('throws for a rule between fields and for an unknown value of a field', () => {
    const reserve = thrownBy({ policy: { maxInputTokens: 1000, reserveOutputTokens: 1000 } }) as InvalidPolicyError
    expect(reserve.issues[0]?.path).toBe('metadata.policy.reserveOutputTokens')
    const tokenizer = thrownBy({ policy: { tokenizer: 'o300k' } }) as InvalidPolicyError
    expect(tokenizer.issues[0]?.path).toBe('metadata.policy.tokenizer')
  })

  it.each<[string, JsonObject['policy']]>([
    ['a string', 'toolFocused'],
    ['a number', 8000],
    ['a boolean', true],
    ['an array', [{ maxInputTokens: 8000 }]],
  ])('throws InvalidPolicyError for %s in place of policy options', (kind, stored) => {
    const error = thrownBy({ policy: stored })
    expect(InvalidPolicyError.isInstance(error)).toBe(true)
    const invalid = error as InvalidPolicyError
    expect(invalid.issues).toEqual([
      {
        path: 'metadata.policy',
        message: `must be an object of policy options (what definePolicy takes), not ${kind === 'an array' ? 'an array' : typeof stored}`,
      },
    ])
  })
})

describe('a session on a thread whose stored policy is malformed', () => {
  async function collect(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
    const all: SessionEvent[] = []
    for await (const event of events) all.push(event)
    return all
  }

  it('ends the request with the InvalidPolicyError, writes nothing and stays usable once the policy is fixed', async () => {
    const { threads } = createMemoryBackedStores({ counters: [counter] })
    const record = await threads.create({ metadata: { policy: { maxInputTokens: 'many' } } })
    const model = scriptedModel({ script: () => 'ok' })
    const session = createSession({ threads, threadId: record.id, model, counter, policy: definePolicy({ maxInputTokens: 3000 }) })

    const failed = await collect(session.send('hello'))
    expect(failed).toHaveLength(1)
    const [event] = failed
    expect(event?.type).toBe('error')
    const error = event?.type === 'error' ? event.error : undefined
    expect(InvalidPolicyError.isInstance(error)).toBe(true)
    expect((error as InvalidPolicyError).issues[0]?.path).toBe('metadata.policy.maxInputTokens')
    expect((await threads.load(record.id)).entries).toEqual([])
    expect(model.requests).toHaveLength(0)
    expect(session.getSnapshot()).toMatchObject({ status: 'idle', lastError: error })
    await expect(session.compactNow()).rejects.toSatisfy((rejected: unknown) => InvalidPolicyError.isInstance(rejected))

    await threads.update(record.id, { metadata: { policy: { maxInputTokens: 5000, reserveOutputTokens: 500 } } })
    const answered = await collect(session.send('hello'))
    expect(answered.at(-1)).toMatchObject({ type: 'done', text: 'ok' })
    expect(model.requests.map((request) => request.projection.meta.budget.maxInputTokens)).toEqual([5000])
  })
})
