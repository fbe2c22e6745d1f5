// Node-only (Vite's dev server): imported by Playwright specs and benches, never by a browser page.
import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'

/** The harness pages: each package keeps its page beside the code it drives (it reaches internals). */
export type HarnessPage = 'agent' | 'store' | 'sync'

interface HarnessSettings {
  readonly root: URL
  readonly port: number
  /**
   * COOP + COEP, so `performance.now()` ticks in microseconds rather than 100 µs: the loop bench
   * times sub-millisecond work.
   */
  readonly crossOriginIsolated: boolean
  /** Prebundled up front, so the dep optimizer never reloads a page mid-test. */
  readonly prebundle: readonly string[]
}

const harnesses: Readonly<Record<HarnessPage, HarnessSettings>> = {
  // Driven by e2e/agent-recovery.spec.ts and packages/agent/bench through `window.agentHarness`.
  agent: {
    root: new URL('../../../agent/src/testing/harness/', import.meta.url),
    port: 4181,
    crossOriginIsolated: true,
    prebundle: ['zod', '@threadlens/store > dexie', '@threadlens/core > gpt-tokenizer/encoding/o200k_base'],
  },
  // Driven by e2e/store-tabs.spec.ts and packages/store/bench through `window.storeHarness`. Its own
  // origin (port), so CDP faults on it (quota, clearing site data) touch nothing else.
  store: {
    root: new URL('../../../store/src/testing/harness/', import.meta.url),
    port: 4180,
    crossOriginIsolated: false,
    prebundle: ['dexie', 'zod'],
  },
  // Driven by e2e/sync-devices.spec.ts and packages/sync/bench through `window.syncHarness`: one
  // device per browser context, syncing through a local server (loopback, CORS).
  sync: {
    root: new URL('../../../sync/src/testing/harness/', import.meta.url),
    port: 4182,
    crossOriginIsolated: false,
    prebundle: ['@threadlens/store > dexie', 'zod'],
  },
}

export interface ServeHarnessOptions {
  /** Default: 4181 for the agent page, 4180 for the store page, 4182 for the sync page; the next free port when taken. */
  readonly port?: number
}

export interface HarnessServer {
  /** The page's URL, e.g. `http://127.0.0.1:4180/`. */
  readonly url: string
  close(): Promise<void>
}

/** Serves one package's harness page with Vite's dev server on 127.0.0.1, for Playwright specs and benches. */
export async function serveHarness(page: HarnessPage, options: ServeHarnessOptions = {}): Promise<HarnessServer> {
  const settings = harnesses[page]
  const port = options.port ?? settings.port
  const server: ViteDevServer = await createServer({
    configFile: false,
    root: fileURLToPath(settings.root),
    cacheDir: fileURLToPath(new URL(`../../node_modules/.vite-harness-${page}`, import.meta.url)),
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port,
      strictPort: false,
      // No watching and no HMR: an edit elsewhere in the repo must not reload a page mid-test or mid-measurement.
      hmr: false,
      watch: null,
      ...(settings.crossOriginIsolated
        ? { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } }
        : {}),
    },
    optimizeDeps: { entries: ['index.html'], include: [...settings.prebundle] },
  })
  await server.listen()
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`
  return { url, close: () => server.close() }
}
