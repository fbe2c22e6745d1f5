/**
 * @threadlens/testing: what threadlens' own tests share, safe in a browser page (no `node:`
 * imports). Private: never packed or published. Node-only helpers are in `./node`, the Playwright
 * route adapter in `./playwright`.
 */
export type { FakeOutcome, FakeProvider, FakeProviderOptions, IncomingFakeRequest } from './fake-provider/fake-provider'
export { createFakeProvider } from './fake-provider/fake-provider'
export type {
  FakeAnswer,
  FakeFailure,
  FakeRawStream,
  FakeReply,
  FakeResponse,
  FakeStep,
  FakeStream,
  FakeToolCall,
  RecordedRequest,
} from './fake-provider/fake-script'
// Core keeps its random threads and hostile values for its own tests (core must not depend on a
// package that depends on core); the other packages' tests take them from here.
export type { Action } from '../../core/src/testing/random-thread'
export {
  actionArbitrary,
  actionsArbitrary,
  buildThread,
  pendingArbitrary,
  policyOptionsArbitrary,
  sampleTools,
  textArbitrary,
} from '../../core/src/testing/random-thread'
export { awkwardJsonArbitrary, hostileLeaves, hostileValueArbitrary, nested, nestedArrays } from '../../core/src/testing/hostile-values'
export { errorMarkerProblems, exportedErrorClasses } from '../../core/src/testing/error-classes'
