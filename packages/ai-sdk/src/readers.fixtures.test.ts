import { describeFixtureFiles, oneIssueOutcome, type FixtureCheck, type FixtureRun } from '@threadlens/core/testing/node'
import type { UIMessage } from 'ai'
import { expect } from 'vitest'
import { reportedCallsOf } from './call-metadata'
import { InvalidProjectedRequestError } from './errors'
import { readProjectedRequest } from './read-projected-request'

// Accept/reject fixtures of what a server or a browser sends us (testing/fixtures/*.json): valid
// samples and seeded random damage to them (core's `mutate`), one case for every distinct first
// problem (field and rule) the damage caused. They were recorded from the zod schemas these checks
// used before core's readers; the readers agree on every case. A rule change is a change to the
// fixture: edit the case, or run with UPDATE_FIXTURES=1 and review the diff of the JSON files.

/** The calls a reply's `metadata.threadlens` reports for message `m1`, or the first issue of its `InvalidCallMetadataError`. */
function callMetadata(threadlens: unknown): FixtureRun {
  const reported = reportedCallsOf({ id: 'm1', role: 'assistant', parts: [], metadata: { threadlens } } as UIMessage)
  if (reported.problem === undefined) return { ok: true, value: Object.fromEntries(reported.calls) }
  expect(reported.problem.issues).toHaveLength(1)
  return { ok: false, error: { messageId: reported.problem.messageId, issue: reported.problem.issues[0] } }
}

/** The request read from a body (browser instructions allowed), or the reason and first issue of its `InvalidProjectedRequestError`. */
function projectedBody(body: unknown): FixtureRun {
  return oneIssueOutcome(
    (error) => InvalidProjectedRequestError.isInstance(error),
    () => readProjectedRequest(body, { allowClientInstructions: true, maxMessages: 20 }),
    (error) => ({ reason: error.reason, issue: error.issues[0] }),
  )
}

const checks: readonly FixtureCheck[] = [
  { fixture: 'call-metadata', run: callMetadata },
  { fixture: 'projected-request-bodies', run: projectedBody },
]

describeFixtureFiles(
  "ai-sdk's checks of what is sent to it: the recorded accept/reject fixtures",
  new URL('./testing/fixtures/', import.meta.url),
  checks,
)
