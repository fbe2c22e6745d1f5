import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from './e2e/chromium.ts'

// End-to-end tests drive the built demo in Debian's Chromium.
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node_modules/.bin/vite build --config demo/vite.config.ts && node_modules/.bin/vite preview --config demo/vite.config.ts --host 127.0.0.1 --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173',
    reuseExistingServer: false,
    timeout: 120_000,
  },
})
