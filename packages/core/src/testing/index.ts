/**
 * `@threadlens/core/testing`: what core's tests share with the other packages' tests (random
 * threads, hostile values, error-class checks, call records and their options), safe in a browser
 * page. Declared for the workspace only: the published package (`publishConfig.exports`) does not
 * have it. `@threadlens/testing` re-exports it beside the rest of the test kit;
 * `@threadlens/core/testing/node` has the public API suite (Node and vitest).
 */
export type { Action } from './random-thread'
export { actionArbitrary, actionsArbitrary, buildThread, pendingArbitrary, policyOptionsArbitrary, sampleTools, textArbitrary } from './random-thread'
export { awkwardJsonArbitrary, hostileLeaves, hostileValueArbitrary, nested, nestedArrays } from './hostile-values'
export { seededRandom } from './seeded-random'
export { errorMarkerProblems, exportedErrorClasses } from './error-classes'
export { bareCallRecord, serverCallOptions, testCallOptions } from './calls'
