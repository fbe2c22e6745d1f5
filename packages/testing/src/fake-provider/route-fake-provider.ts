// Playwright-only (the test runner's side of `page.route`): imported by e2e specs, never by a page.
import type { Page } from '@playwright/test'
import { createFakeProvider, type FakeProvider, type FakeProviderOptions, responseHeaders, responseText } from './fake-provider'

export interface RouteFakeProviderOptions extends FakeProviderOptions {
  /**
   * The base URL the app under test is pointed at (its `/chat/completions` and `/messages` are
   * answered). On the page's own origin, so the page needs no CORS and no network.
   * Default: `http://127.0.0.1:4173/fake-llm/v1` (the demo's preview server; `THREADLENS_E2E_PORT` moves it).
   */
  readonly baseURL?: string
}

export interface RoutedFakeProvider extends FakeProvider {
  /** The base URL to give the app, without a trailing slash. */
  readonly baseURL: string
  /** The POST requests received (what reached the provider, preflights left out). */
  readonly calls: number
}

/**
 * Serves the same scripted fake providers as `startFakeProviderServer`, inside one Playwright page
 * through `page.route`: same request checks, same scripts, same error shapes. Playwright fulfils a
 * response whole, so a stream that ends in `disconnect` becomes a connection reset before any byte,
 * a `stall` is never answered (until the page goes), and `writeSize` does not exist here: specs
 * that need a stream cut half-way use the Node server.
 */
export async function routeFakeProvider(page: Page, options: RouteFakeProviderOptions = {}): Promise<RoutedFakeProvider> {
  const baseURL = (options.baseURL ?? `http://127.0.0.1:${process.env.THREADLENS_E2E_PORT ?? 4173}/fake-llm/v1`).replace(/\/+$/, '')
  const basePath = new URL(baseURL).pathname
  const provider = createFakeProvider(options)

  await page.route(`${baseURL}/**`, async (route) => {
    const request = route.request()
    const { outcome } = provider.receive({
      method: request.method(),
      // The fake's routes are the providers' own paths (`/v1/chat/completions`), wherever the app points.
      path: `/v1${new URL(request.url()).pathname.slice(basePath.length)}`,
      headers: await request.allHeaders(),
      rawBody: request.postData() ?? '',
    })
    if (outcome.kind === 'preflight') return route.fulfill({ status: 204, headers: outcome.headers })
    if (outcome.kind === 'response')
      return route.fulfill({ status: outcome.response.status, headers: responseHeaders(outcome.response), body: responseText(outcome.response) })
    if (outcome.firstByteDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.firstByteDelayMs))
    if (outcome.stream.end === 'disconnect') return route.abort('connectionreset')
    if (outcome.stream.end === 'stall') return undefined
    return route.fulfill({ status: 200, headers: outcome.headers, body: outcome.stream.frames.join('') })
  })

  return {
    baseURL,
    requests: provider.requests,
    get calls() {
      return provider.requests.filter((request) => request.method === 'POST').length
    },
    get remainingSteps() {
      return provider.remainingSteps
    },
    enqueue: (...steps) => provider.enqueue(...steps),
    receive: (request) => provider.receive(request),
  }
}
