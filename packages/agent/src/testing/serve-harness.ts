import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'

/**
 * Serves the agent harness page (src/testing/harness) with Vite's dev server, for the Playwright
 * recovery tests (e2e/agent-recovery.spec.ts) and the loop bench (bench/loop.bench.ts), as the
 * store does with its own harness. Cross-origin isolated (COOP + COEP), so `performance.now()`
 * ticks in microseconds rather than 100 µs: the bench times sub-millisecond work.
 */
export async function serveAgentHarness(port = 4181): Promise<{ url: string; close: () => Promise<void> }> {
  const root = fileURLToPath(new URL('./harness', import.meta.url))
  const server: ViteDevServer = await createServer({
    configFile: false,
    root,
    cacheDir: fileURLToPath(new URL('../../node_modules/.vite-harness', import.meta.url)),
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port,
      strictPort: false,
      // No watching and no HMR (as the store's harness): an edit elsewhere in the repo must not reload a page mid-test.
      hmr: false,
      watch: null,
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    },
    // Found by crawling the page up front, so the dep optimizer never reloads a page mid-test.
    optimizeDeps: { entries: ['index.html'], include: ['zod', '@threadlens/store > dexie', '@threadlens/core > gpt-tokenizer/encoding/o200k_base'] },
  })
  await server.listen()
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`
  return { url, close: () => server.close() }
}
