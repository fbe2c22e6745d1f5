// Config of the child vitest that runs the conformance suite (./suite.ts); it is not one of the
// root config's projects, so the suite runs only when server-conformance.test.ts starts it.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['suite.ts'],
    environment: 'node',
  },
})
