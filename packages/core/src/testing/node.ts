/** `@threadlens/core/testing/node`: the public API suite every package's `public-api.test.ts` runs (Node and vitest). Workspace only. */
export { describePublicApi, MAIN_ENTRY_BUDGET } from './public-api-suite'
