import { describeFixtureFiles, oneIssueOutcome, type FixtureCheck, type FixtureRun } from '@threadlens/core/testing/node'
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

/** The client made from the options (its id and provider), or the first issue of its `InvalidModelClientOptionsError`. */
function clientOutcome(make: (options: never) => { readonly id: string; readonly provider: string }): (options: unknown) => FixtureRun {
  return (options) =>
    oneIssueOutcome(
      (error) => InvalidModelClientOptionsError.isInstance(error),
      () => {
        const client = make(options as never)
        return { id: client.id, provider: client.provider }
      },
    )
}

const checks: readonly FixtureCheck[] = [
  { fixture: 'openai-compatible-options', run: clientOutcome(openAICompatible) },
  { fixture: 'anthropic-options', run: clientOutcome(anthropic) },
  { fixture: 'scripted-model-options', run: clientOutcome(scriptedModel) },
]

describeFixtureFiles("the model clients' options: the recorded accept/reject fixtures", new URL('../testing/fixtures/', import.meta.url), checks)
