import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { actionsArbitrary, buildThread, policyOptionsArbitrary } from '../testing/random-thread'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { sharedPrefix } from './shared-prefix'

const SEED = 20261129

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('heuristic')
})

describe('sharedPrefix: what two requests share from the start', () => {
  it(`counts exactly the leading messages equal as JSON, with their tokens in the later request, for a thread projected under two random policies (seed ${SEED})`, () => {
    fc.assert(
      fc.property(actionsArbitrary, policyOptionsArbitrary, policyOptionsArbitrary, fc.nat(6), (actions, first, second, grow) => {
        const thread = buildThread(actions)
        const before = project({ thread: buildThread(actions.slice(0, Math.max(1, actions.length - grow))), policy: definePolicy(first), counter })
        const after = project({ thread, policy: definePolicy(second), counter })
        const shared = sharedPrefix(before, after)
        const same = (index: number) => JSON.stringify(before.messages[index]) === JSON.stringify(after.messages[index])
        for (let index = 0; index < shared.messages; index++) expect(same(index)).toBe(true)
        // It stops at the first difference, or where one request ends.
        if (shared.messages < Math.min(before.messages.length, after.messages.length)) expect(same(shared.messages)).toBe(false)
        else expect(shared.messages).toBe(Math.min(before.messages.length, after.messages.length))
        const tokens = after.meta.messages.slice(0, shared.messages).reduce((sum, info) => sum + info.tokens, 0)
        expect(shared.tokens).toBe(tokens)
        // A request shares all of itself with itself.
        expect(sharedPrefix(after, after)).toEqual({
          messages: after.messages.length,
          tokens: after.meta.messages.reduce((sum, info) => sum + info.tokens, 0),
        })
      }),
      { numRuns: 200, seed: SEED },
    )
  })
})
