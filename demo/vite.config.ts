import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
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
 * Writes `.vite/chunk-modules.json`: each chunk's modules with their rendered (tree-shaken, not yet
 * minified) lengths and the gzip size of that code alone, so `demo/bench/first-load-size.ts` can
 * say what the first load is made of (React's code compresses far better than ours: shares of the
 * rendered length would overstate it).
 */
function chunkModules(): Plugin {
  return {
    name: 'threadlens-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk'
          ? [
              {
                fileName: output.fileName,
                modules: Object.entries(output.modules).map(([id, module]) => ({
                  id: moduleName(id),
                  renderedBytes: module.renderedLength,
                  gzipBytes: module.code === null ? 0 : gzipSync(module.code).length,
                })),
              },
            ]
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

/** The panel body and the tab it opens on by default (the Projection): what the panel's first view runs. */
const panelFirstViewModules = ['devtools/src/panel/panel.tsx', 'devtools/src/tabs/projection/projection-tab.tsx']

/**
 * Collects the devtools modules the panel's first view imports (statically, inside devtools/src),
 * once the build has read every module, for the `panel` chunk group below.
 */
function panelFirstView(): Plugin & { readonly modules: Set<string> } {
  const modules = new Set<string>()
  return {
    name: 'threadlens-panel-first-view',
    apply: 'build',
    modules,
    buildEnd() {
      const stack = [...this.getModuleIds()].filter((id) => panelFirstViewModules.some((path) => id === `${repoRoot}${path}`))
      while (stack.length > 0) {
        const id = stack.pop() as string
        if (modules.has(id) || !id.startsWith(`${repoRoot}devtools/src/`)) continue
        modules.add(id)
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []))
      }
    },
  }
}

const panel = panelFirstView()

export default defineConfig({
  root: demoRoot,
  plugins: [react(), chunkModules(), separateZodForAiSdk(), panel],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The o200k_base ranks are one ~2 MB chunk, loaded lazily on purpose: do not warn about it.
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      // The chat (`/`, loaded lazily by main.tsx as before) is also an entry of the build, so that
      // what its first view runs can be grouped: rolldown otherwise gives each module shared by the
      // chat and some set of lazy chunks (the devtools tabs, the store's import and export, the
      // sending part) a chunk of its own, which came to some 30 small files and about 10 KB of
      // gzip overhead at the first load. `$initial` is what the entries import statically, as
      // tree-shaking leaves it.
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        'chat-app': fileURLToPath(new URL('./src/chat/chat-app.tsx', import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            // The packages' code the chat's first view runs, in the entry chunk (the lab and the AI SDK view use most of it too).
            { name: 'first-view', tags: ['$initial'], priority: 3, test: (id: string) => !id.startsWith(`${demoRoot}src/`) },
            // The chat's own code, in the chat's chunk: the other views do not download it.
            { name: 'chat-app', tags: ['$initial'], priority: 2, test: (id: string) => id.startsWith(`${demoRoot}src/chat/`) },
            // The panel body and its first tab in one chunk (a wide first visit opens the panel); the other tabs import from it.
            { name: 'panel', priority: 1, includeDependenciesRecursively: false, test: (id: string) => panel.modules.has(id) },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
})
