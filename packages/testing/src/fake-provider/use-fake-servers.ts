// Node-only test helper (vitest hooks): imported by `*.test.ts` files.
import { afterEach } from 'vitest'
import type { FakeProviderServer } from './fake-provider-server'

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
