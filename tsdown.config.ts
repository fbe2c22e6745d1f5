import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type UserConfig } from 'tsdown'

// Builds every public package to ESM + `.d.ts` under its own `dist/` (`npm run build`).
// Inside the workspace nothing reads `dist/`: each package.json's `exports` points at `src/` so
// vitest, vite and tsc run from source; `publishConfig.exports` (applied by `pnpm pack`) points
// a published tarball at `dist/`. Dependencies and peers stay external (tsdown's default), so the
// tokenizer ranks remain a dynamic `import()` of gpt-tokenizer in the built core.

/** Components and hooks run only on the client: Next.js needs the directive on their modules. */
const useClient = "'use client';"

function pkg(dir: string, entry: Record<string, string>, options: UserConfig = {}): UserConfig {
  const cwd = fileURLToPath(new URL(`./${dir}/`, import.meta.url))
  return {
    name: dir,
    cwd,
    entry,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // tsgo (TypeScript 7) emits the declarations, one beside each module.
    dts: true,
    tsconfig: 'tsconfig.build.json',
    outDir: 'dist',
    clean: true,
    sourcemap: false,
    // `process.env.NODE_ENV` (devtools' production guard) is left for the app's bundler (no define).
    report: false,
    // One output module per source module: with `sideEffects: false` an app's bundler drops whole
    // modules it does not use (the model metadata when `policyForModel` is not imported), which a
    // single flattened file with module-level tables would keep.
    unbundle: true,
    // Rolldown's plugin timing notes are about the dts step's tsgo process: noise in every build.
    inputOptions: { checks: { pluginTimings: false } },
    ...options,
  }
}

/**
 * A package's built entries, read from its package.json: each subpath `publishConfig.exports`
 * publishes (`./caching` → `dist/caching.js`) is built from the source file `exports` names for
 * it (`./src/caching/index.ts`), so the two lists cannot drift apart.
 */
function publishedEntries(dir: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(new URL(`./${dir}/package.json`, import.meta.url), 'utf8')) as {
    exports: Record<string, string>
    publishConfig: { exports: Record<string, unknown> }
  }
  const entries: Record<string, string> = {}
  for (const subpath of Object.keys(manifest.publishConfig.exports)) {
    const source = manifest.exports[subpath]
    if (subpath === './package.json' || source === undefined) continue
    entries[subpath === '.' ? 'index' : subpath.slice(2)] = source.replace(/^\.\//, '')
  }
  return entries
}

export default defineConfig([
  pkg('packages/core', publishedEntries('packages/core')),
  pkg('packages/store', { index: 'src/index.ts', attachments: 'src/exports/attachments.ts', dexie: 'src/exports/dexie.ts' }),
  pkg('packages/agent', { index: 'src/index.ts', testing: 'src/exports/testing.ts' }),
  pkg('packages/client', { index: 'src/index.ts' }),
  pkg('packages/react', { index: 'src/index.ts' }, { outputOptions: { banner: useClient } }),
  pkg('packages/ai-sdk', { index: 'src/index.ts', testing: 'src/testing/index.ts' }),
  pkg('packages/sync', { index: 'src/index.ts' }),
  pkg('devtools', { index: 'src/index.ts', production: 'src/production.ts' }, { outputOptions: { banner: useClient } }),
])
