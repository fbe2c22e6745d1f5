import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

// Invoked from the repo root (`vite --config demo/vite.config.ts`), so the root is pinned to this folder.
const demoRoot = fileURLToPath(new URL('.', import.meta.url))
const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** `dexie`, `zod/v4/core/schemas.js`, `packages/core/src/project/project.ts`: no machine's paths in the build. */
function moduleName(rawId: string): string {
  const id = rawId.replace(/^\0/, '').trim()
  const inPackage = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+\/.*)$/.exec(id)
  if (inPackage !== null) return inPackage[1] as string
  if (id.startsWith(repoRoot)) return id.slice(repoRoot.length)
  // Bundler helpers (`vite/preload-helper.js`) keep their name; any other absolute path keeps its file name.
  return id.startsWith('/') ? id.replace(/^.*\//, '') : id
}

/**
 * Writes `.vite/chunk-modules.json`: each chunk's modules and their rendered (tree-shaken, not yet
 * minified) lengths, so `demo/bench/first-load-size.ts` can say what the first load is made of.
 */
function chunkModules(): Plugin {
  return {
    name: 'threadlens-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk'
          ? [{ fileName: output.fileName, modules: Object.entries(output.modules).map(([id, module]) => ({ id: moduleName(id), renderedBytes: module.renderedLength })) }]
          : [],
      )
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: JSON.stringify(chunks) })
    },
  }
}

export default defineConfig({
  root: demoRoot,
  plugins: [react(), chunkModules()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The o200k_base ranks are one ~2 MB chunk, loaded lazily on purpose: do not warn about it.
    chunkSizeWarningLimit: 2500,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
