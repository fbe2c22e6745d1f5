// Node-only test helpers (vitest hooks): imported by `*.test.ts` files.
import { afterEach, beforeEach } from 'vitest'
import { type FakeProviderServer, type FakeProviderServerOptions, startFakeProviderServer } from './fake-provider-server'

/** Closes every fake server a test started, after each test: pass each one to the returned function. */
export function useFakeServers(): (server: FakeProviderServer) => FakeProviderServer {
  let servers: FakeProviderServer[] = []
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()))
    servers = []
  })
  return (server) => {
    servers.push(server)
    return server
  }
}

/**
 * A fresh fake server for each test of the calling file: started before the test, closed after it.
 * The returned object stands for the running test's server (outside a test it throws).
 */
export function fakeServerPerTest(options: FakeProviderServerOptions = {}): FakeProviderServer {
  let current: FakeProviderServer | undefined
  beforeEach(async () => {
    current = await startFakeProviderServer(options)
  })
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  const live = (): FakeProviderServer => {
    if (current === undefined) throw new Error('fakeServerPerTest: the server runs only while a test does')
    return current
  }
  return {
    get url() {
      return live().url
    },
    get baseURL() {
      return live().baseURL
    },
    get requests() {
      return live().requests
    },
    get remainingSteps() {
      return live().remainingSteps
    },
    enqueue: (...steps) => live().enqueue(...steps),
    whenClosed: (request) => live().whenClosed(request),
    close: () => live().close(),
  }
}
