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
// Core's random threads, hostile values and error-class checks (core's own tests use them too; its
// workspace-only `./testing` entry, so core never depends on a package that depends on core).
export * from '@threadlens/core/testing'
