import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'
import { describe, expect, it } from 'vitest'

// Dexie (about 32 KB gzip) must stay out of what an app loads eagerly with `@threadlens/store`:
// `openThreadlensDB` imports the database module (and Dexie with it) on first open. This bundles
// each entry point the way an app's Vite build does and walks the chunks reached by static imports
// from the entry; a static `import … from 'dexie'` anywhere in that graph puts Dexie in them.

interface Graph {
  /** Module ids in chunks the entry reaches through static imports. */
  readonly eager: readonly string[]
  /** Module ids in chunks reached only through a dynamic `import()`. */
  readonly lazy: readonly string[]
}

async function bundle(entry: string): Promise<Graph> {
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      modulePreload: false,
      rollupOptions: { input: fileURLToPath(new URL(entry, import.meta.url)), preserveEntrySignatures: 'strict' },
    },
  })
  const outputs = (Array.isArray(built) ? built : [built])
    .flatMap((result) => ('output' in result ? result.output : []))
    .filter((output): output is Rolldown.OutputChunk => output.type === 'chunk')
  const byFile = new Map(outputs.map((chunk) => [chunk.fileName, chunk]))
  const eagerFiles = new Set<string>()
  const visit = (fileName: string): void => {
    if (eagerFiles.has(fileName)) return
    eagerFiles.add(fileName)
    for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported)
  }
  for (const chunk of outputs) if (chunk.isEntry) visit(chunk.fileName)
  const modulesOf = (eager: boolean) =>
    outputs.filter((chunk) => eagerFiles.has(chunk.fileName) === eager).flatMap((chunk) => Object.keys(chunk.modules))
  return { eager: modulesOf(true), lazy: modulesOf(false) }
}

const isDexie = (id: string) => /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?dexie[\\/]/.test(id)
const isDatabaseModule = (id: string) => id.endsWith('/backends/indexeddb/threadlens-db.ts')

describe('Dexie loads lazily', () => {
  it('the main entry reaches Dexie and the database class only through a dynamic import', async () => {
    const graph = await bundle('./index.ts')
    expect(graph.eager.filter(isDexie), 'dexie modules in the eager graph of @threadlens/store').toEqual([])
    expect(graph.eager.filter(isDatabaseModule), 'the Dexie subclass in the eager graph').toEqual([])
    // Not vacuous: the same bundle does hold Dexie and the database class, in a lazy chunk.
    expect(graph.lazy.some(isDexie)).toBe(true)
    expect(graph.lazy.some(isDatabaseModule)).toBe(true)
  })

  it('the attachments entry does not load Dexie either', async () => {
    const graph = await bundle('./exports/attachments.ts')
    expect(graph.eager.filter(isDexie)).toEqual([])
  })

  it('the dexie entry loads it eagerly, as it says (the check sees a static import)', async () => {
    const graph = await bundle('./exports/dexie.ts')
    expect(graph.eager.some(isDexie)).toBe(true)
    expect(graph.eager.some(isDatabaseModule)).toBe(true)
  })
})

describe('Import, export, fork and the in-memory fallback load lazily', () => {
  const lazyOnly: readonly [string, RegExp][] = [
    ['the thread file reader', /\/transfer\/thread-jsonl\.ts$/],
    ["core's OpenAI-format reader", /\/import\/from-openai-chat\.ts$/],
    ['import', /\/threads\/import-thread\.ts$/],
    ['export', /\/threads\/export-thread\.ts$/],
    ['fork', /\/threads\/fork-thread\.ts$/],
    ['the in-memory stores', /\/backends\/in-memory\/create-in-memory-stores\.ts$/],
  ]

  it('an app that opens the stores reaches them only through a dynamic import', async () => {
    const graph = await bundle('./testing/fixtures/opens-stores.ts')
    for (const [what, pattern] of lazyOnly) {
      expect(
        graph.eager.filter((id) => pattern.test(id)),
        `${what} in the eager graph`,
      ).toEqual([])
      // Not vacuous: the bundle holds it, in a lazy chunk.
      expect(
        graph.lazy.some((id) => pattern.test(id)),
        `${what} in a lazy chunk`,
      ).toBe(true)
    }
  })
})
