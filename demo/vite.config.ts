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

const aiSdkCopy = '?ai-sdk-copy'

/**
 * The AI SDK (`ai`, `@ai-sdk/*`, used only by the lazy `?view=ai-sdk` route) validates with classic
 * zod, the chat with zod/mini. Both would share zod's core modules, and a module is bundled whole:
 * the classes only classic needs would ride in the chunk the chat loads first. The AI SDK gets zod
 * modules of its own instead (the same files under another id), bundled in its own lazy chunk.
 */
function separateZodForAiSdk(): Plugin {
  return {
    name: 'threadlens-separate-zod-for-ai-sdk',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === undefined) return null
      const fromAiSdk = /\/node_modules\/(?:ai|@ai-sdk\/[^/]+)\//.test(importer) && !importer.endsWith(aiSdkCopy)
      const fromCopy = importer.endsWith(aiSdkCopy)
      const isZod = source === 'zod' || source.startsWith('zod/')
      if (!(fromAiSdk && isZod) && !(fromCopy && (source.startsWith('.') || isZod))) return null
      const resolved = await this.resolve(source, importer.replace(aiSdkCopy, ''), { ...options, skipSelf: true })
      if (resolved === null || resolved.external) return resolved
      return { ...resolved, id: `${resolved.id}${aiSdkCopy}` }
    },
  }
}

export default defineConfig({
  root: demoRoot,
  plugins: [react(), chunkModules(), separateZodForAiSdk()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The o200k_base ranks are one ~2 MB chunk, loaded lazily on purpose: do not warn about it.
    chunkSizeWarningLimit: 2500,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
