/** `@threadlens/core/testing/node`: the suites every package's `public-api.test.ts` and `error-markers.test.ts` run (Node and vitest). Workspace only. */
export { describeErrorMarkers } from './error-markers-suite'
export { describePublicApi, MAIN_ENTRY_BUDGET } from './public-api-suite'
