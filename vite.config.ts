import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { chromiumArgs, chromiumExecutable } from './e2e/chromium.ts'

// Vitest runs two projects: pure/node tests (`*.test.ts`) and real-Chromium tests (`*.browser.test.ts`).
export default defineConfig({
  test: {
    // Property tests check 1,000 random threads each and take seconds on a busy 2-core machine:
    // this is a guard against hangs, not a speed requirement.
    testTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/src/**/*.test.tsx',
            'devtools/src/**/*.test.ts',
            'devtools/src/**/*.test.tsx',
            'demo/src/**/*.test.ts',
          ],
          exclude: ['**/*.browser.test.ts', '**/*.browser.test.tsx', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [
            'packages/*/src/**/*.browser.test.ts',
            'packages/*/src/**/*.browser.test.tsx',
            'devtools/src/**/*.browser.test.tsx',
            'demo/src/**/*.browser.test.tsx',
          ],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
