import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from './e2e/chromium.ts'

// End-to-end tests drive the built demo in Debian's Chromium. THREADLENS_E2E_PORT moves its preview
// server off 4173, so two checkouts on one machine can run their specs side by side.
const port = Number(process.env.THREADLENS_E2E_PORT ?? 4173)

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node_modules/.bin/vite build --config demo/vite.config.ts && node_modules/.bin/vite preview --config demo/vite.config.ts --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
})
