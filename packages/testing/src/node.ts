/**
 * @threadlens/testing/node: the Node-only half of the test kit (node:http, Vite's dev server,
 * vitest hooks). Never imported by a browser page.
 */
export type { FakeProviderServer, FakeProviderServerOptions } from './fake-provider/fake-provider-server'
export { startFakeProviderServer } from './fake-provider/fake-provider-server'
export { fakeServerPerTest, useFakeServers } from './fake-provider/use-fake-servers'
export type { HarnessPage, HarnessServer, ServeHarnessOptions } from './harness/serve-harness'
export { serveHarness } from './harness/serve-harness'
export { describeErrorMarkers, describePublicApi, MAIN_ENTRY_BUDGET } from '@threadlens/core/testing/node'
export { writeBenchResults } from './bench/bench-results'
export { benchInHarness } from './bench/bench-in-harness'
