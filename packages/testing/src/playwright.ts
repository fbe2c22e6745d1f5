/**
 * @threadlens/testing/playwright: the scripted fake providers inside a Playwright page
 * (`page.route`), for e2e specs that point an app at a model server.
 */
export type { RoutedFakeProvider, RouteFakeProviderOptions } from './fake-provider/route-fake-provider'
export { routeFakeProvider } from './fake-provider/route-fake-provider'
