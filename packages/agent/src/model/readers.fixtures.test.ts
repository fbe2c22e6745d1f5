import { checkFixture } from '@threadlens/core/testing/node'
import { describe, expect, it } from 'vitest'
import { anthropic } from './anthropic'
import { InvalidModelClientOptionsError } from './errors'
import { openAICompatible } from './openai-compatible'
import { scriptedModel } from './scripted-model'

// Accept/reject fixtures of the model clients' options (testing/fixtures/*-options.json): valid
// options and seeded random damage to them (core's `mutate`), one case for every distinct first
// problem (option and rule) the damage caused. They were recorded from the zod schemas the options
// were checked with before core's readers; the readers agree on every case. A rule change is a
// change to the fixture: edit the case, or run with UPDATE_FIXTURES=1 and review the diff of the
// JSON files. (Functions cannot be written in JSON: `fetch`, `onRetry` and script functions are
// checked in the clients' own tests.)

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/** The client made from the options (its id and provider), or the first issue of its `InvalidModelClientOptionsError`. */
function clientOutcome(make: (options: never) => { readonly id: string; readonly provider: string }): (options: unknown) => Outcome {
  return (options) => {
    try {
      const client = make(options as never)
      return { ok: true, value: { id: client.id, provider: client.provider } }
    } catch (error) {
      if (!InvalidModelClientOptionsError.isInstance(error)) throw error
      expect(error.issues).toHaveLength(1)
      return { ok: false, error: error.issues[0] }
    }
  }
}

const checks: readonly { readonly fixture: string; readonly run: (value: unknown) => Outcome }[] = [
  { fixture: 'openai-compatible-options', run: clientOutcome(openAICompatible) },
  { fixture: 'anthropic-options', run: clientOutcome(anthropic) },
  { fixture: 'scripted-model-options', run: clientOutcome(scriptedModel) },
]

describe("the model clients' options: the recorded accept/reject fixtures", () => {
  for (const { fixture, run } of checks) {
    it(`${fixture}.json`, () => {
      const result = checkFixture(new URL(`../testing/fixtures/${fixture}.json`, import.meta.url), run)
      expect(result.cases).toBeGreaterThan(10)
      expect(result.mismatches, `${result.mismatches.length} of ${result.cases} cases differ`).toEqual([])
    })
  }
})
