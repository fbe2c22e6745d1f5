/** `@threadlens/core/testing/node`: the suites every package's `public-api.test.ts` and `error-markers.test.ts` run (Node and vitest). Workspace only. */
export { describeErrorMarkers } from './error-markers-suite'
export { describePublicApi, MAIN_ENTRY_BUDGET } from './public-api-suite'
// Accept/reject fixtures and the random damage their cases were made with, for the other packages' readers.
export type { FixtureCase } from './fixture-cases'
export { checkFixture, encodeValue, fixtureText, storedOutcome } from './fixture-cases'
export { mutate, mutationsArbitrary } from './mutations'
export type { FixtureCheck, FixtureRun } from './fixture-suite'
export { describeFixtureFiles, oneIssueOutcome, readerOutcome } from './fixture-suite'
