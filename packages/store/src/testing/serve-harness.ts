import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'

/**
 * Serves the store harness page (src/testing/harness) with Vite's dev server, for Playwright
 * tests with several tabs and for the store bench. Its own origin, so CDP faults on it
 * (quota, clearing site data) touch nothing else.
 */
export async function serveHarness(port = 4180): Promise<{ url: string; close: () => Promise<void> }> {
  const root = fileURLToPath(new URL('./harness', import.meta.url))
  const server: ViteDevServer = await createServer({
    configFile: false,
    root,
    cacheDir: fileURLToPath(new URL('../../node_modules/.vite-harness', import.meta.url)),
    logLevel: 'warn',
    // No watching and no HMR: an edit elsewhere in the repo must not reload a page mid-measurement.
    server: { host: '127.0.0.1', port, strictPort: false, hmr: false, watch: null },
    optimizeDeps: { include: ['dexie', 'zod'] },
  })
  await server.listen()
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`
  return { url, close: () => server.close() }
}
