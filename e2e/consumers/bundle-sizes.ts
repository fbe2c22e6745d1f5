// `npm run bench` step: what an app downloads eagerly for each entry point, measured on the BUILT
// packages (dist/, as published) the way an app bundles them: Vite, minified, tree-shaken, then gzip.
// Chunks reached only through a dynamic import (the tokenizer ranks, the devtools panel body) are
// lazy and excluded; react and react-dom are excluded (the app has them anyway). Run
// `npm run build` first. Prints a table (one row per entry point and per public subpath of core:
// alone, and what it adds to core's main entry) and writes bench-results/bundle-sizes.json.
// `--explain` also prints, for each row with a target, which modules take the room.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Plugin, type Rolldown } from 'vite'
import { distAliases as alias } from './dist-aliases'
import { firstLineBehaviours, without } from './first-line-prices'

const repo = fileURLToPath(new URL('../../', import.meta.url))
interface Measured {
  readonly name: string
  readonly target: number | undefined
  readonly eagerMinBytes: number
  readonly eagerGzipBytes: number
  readonly lazyGzipBytes: number
  /** Eager modules by rendered (tree-shaken, not yet minified) length, largest first. */
  readonly modules: readonly { readonly id: string; readonly renderedBytes: number }[]
}

/** Each line keeps what it imports alive with a side effect, so tree-shaking keeps exactly that. */
const entries: { readonly name: string; readonly target?: number; readonly code: string }[] = [
  {
    name: 'core: project + createThread + definePolicy',
    target: 15,
    code: `import { project, createThread, definePolicy } from '@threadlens/core'\nconsole.log(project, createThread, definePolicy)`,
  },
  {
    name: 'core: + policyForModel (model metadata)',
    code: `import { project, createThread, definePolicy } from '@threadlens/core'\nimport { policyForModel } from '@threadlens/core/models'\nconsole.log(project, createThread, definePolicy, policyForModel)`,
  },
  { name: 'core: everything', target: 25, code: `import * as core from '@threadlens/core'\nconsole.log(core)` },
  // What Vite adds to an app for its first `import()` (its preload helper, once per app): part of
  // each row above whose package loads something lazily (core: the tokenizer ranks).
  { name: "Vite's preload helper alone (an app's first import())", code: `import('@threadlens/core/parts').then((parts) => console.log(parts))` },
  {
    name: 'core + store: everything',
    target: 60,
    code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nconsole.log(core, store)`,
  },
  {
    name: 'core + store + agent: everything',
    code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nimport * as agent from '@threadlens/agent'\nconsole.log(core, store, agent)`,
  },
  {
    name: '+ client + react: everything',
    code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nimport * as agent from '@threadlens/agent'\nimport * as client from '@threadlens/client'\nimport * as react from '@threadlens/react'\nconsole.log(core, store, agent, client, react)`,
  },
  { name: 'devtools (root), development build', code: `import * as devtools from '@threadlens/devtools'\nconsole.log(devtools)` },
  {
    name: 'devtools (root), production build: no devtools, the token meter kept',
    code: `import * as devtools from '@threadlens/devtools'\nconsole.log(devtools)`,
  },
  { name: 'devtools/production', code: `import * as devtools from '@threadlens/devtools/production'\nconsole.log(devtools)` },
  // What an app that renders only one of them pays: the shell (the panel loads on first open), or the token meter (an app component, kept in production builds).
  {
    name: 'devtools/production: the shell alone (ThreadlensDevtools)',
    code: `import { ThreadlensDevtools } from '@threadlens/devtools/production'\nconsole.log(ThreadlensDevtools)`,
  },
  {
    name: 'devtools: the token meter alone (ThreadlensTokenMeter)',
    code: `import { ThreadlensTokenMeter } from '@threadlens/devtools'\nconsole.log(ThreadlensTokenMeter)`,
  },
  { name: 'ai-sdk: everything (ai excluded)', code: `import * as adapter from '@threadlens/ai-sdk'\nconsole.log(adapter)` },
  // Sync's own cost is this row minus 'core + store: everything' (printed below the table).
  {
    name: 'core + store + sync: everything',
    code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nimport * as sync from '@threadlens/sync'\nconsole.log(core, store, sync)`,
  },
]

/** Core's public subpaths, from its package.json (`/internal` too: the other packages pay for it). */
// The published ones (publishConfig): the workspace-only test kit (`./testing`) is never built.
const coreManifest = JSON.parse(await readFile(join(repo, 'packages/core/package.json'), 'utf8')) as {
  publishConfig: { exports: Record<string, unknown> }
}
const coreSubpaths = Object.keys(coreManifest.publishConfig.exports)
  .filter((key) => key.startsWith('./') && key !== './package.json')
  .map((key) => `@threadlens/core/${key.slice(2)}`)
const subpathRows = coreSubpaths.map((specifier) => ({
  specifier,
  alone: { name: `${specifier} alone`, code: `import * as subpath from '${specifier}'\nconsole.log(subpath)` },
  withCore: {
    name: `${specifier} with core`,
    code: `import * as core from '@threadlens/core'\nimport * as subpath from '${specifier}'\nconsole.log(core, subpath)`,
  },
}))
const explain = process.argv.includes('--explain')

function isChunk(output: Rolldown.OutputChunk | Rolldown.OutputAsset): output is Rolldown.OutputChunk {
  return output.type === 'chunk'
}

let builds = 0
async function measure(folder: string, name: string, code: string, target: number | undefined, plugins: Plugin[] = []): Promise<Measured> {
  const entry = join(folder, `${builds++}.js`)
  await writeFile(entry, code)
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    root: folder,
    plugins,
    resolve: { alias },
    // The devtools' production guard, as an app's production build sees it.
    define: { 'process.env.NODE_ENV': JSON.stringify(name.includes('development') ? 'development' : 'production') },
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      rollupOptions: { input: entry, external: [/^react($|\/)/, /^react-dom($|\/)/, /^ai($|\/)/, /^@ai-sdk\//], output: { format: 'es' } },
    },
  })
  const outputs = (Array.isArray(built) ? built : [built]).flatMap((result) => ('output' in result ? result.output : [])).filter(isChunk)
  const byFile = new Map(outputs.map((chunk) => [chunk.fileName, chunk]))
  const eager = new Set<string>()
  const visit = (fileName: string) => {
    if (eager.has(fileName)) return
    eager.add(fileName)
    for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported)
  }
  for (const chunk of outputs) if (chunk.isEntry) visit(chunk.fileName)
  const eagerCode = outputs.filter((chunk) => eager.has(chunk.fileName)).map((chunk) => chunk.code)
  const lazyCode = outputs.filter((chunk) => !eager.has(chunk.fileName)).map((chunk) => chunk.code)
  return {
    name,
    target,
    eagerMinBytes: eagerCode.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    eagerGzipBytes: eagerCode.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0),
    lazyGzipBytes: lazyCode.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0),
    modules: outputs
      .filter((chunk) => eager.has(chunk.fileName))
      .flatMap((chunk) => Object.entries(chunk.modules).map(([id, module]) => ({ id: moduleName(id), renderedBytes: module.renderedLength })))
      .filter((module) => module.renderedBytes > 0)
      .sort((first, second) => second.renderedBytes - first.renderedBytes),
  }
}

/** `packages/core/dist/entries/thread.js`, `zod/v4/core/schemas.js`: short enough to read in a table. */
function moduleName(rawId: string): string {
  // Bundler helpers have ids like `\0vite/preload-helper.js`; the measured entry lives in the temp folder.
  const id = rawId.replace(/^\0/, '').trim()
  if (id.startsWith(tmpdir())) return '(the measured entry)'
  const inPackage = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+\/.*)$/.exec(id)
  if (inPackage !== null) return inPackage[1] as string
  return id.startsWith(repo) ? id.slice(repo.length) : id
}

/** What owns a module: a package of the repo (`packages/core`) or a dependency (`zod`). */
function ownerOf(module: string): string {
  const [first, second] = module.split('/')
  if (first === 'packages') return `${first}/${second}`
  return first?.startsWith('@') === true ? `${first}/${second}` : (first ?? module)
}

function printExplanation(row: Measured): void {
  const total = row.modules.reduce((sum, module) => sum + module.renderedBytes, 0)
  // Rendered lengths are before minification; their shares estimate each part's share of the gzip size.
  const share = (bytes: number) => `${((bytes / total) * 100).toFixed(1)} %`
  const estimate = (bytes: number) => kb((row.eagerGzipBytes * bytes) / total)
  const owners = new Map<string, number>()
  for (const module of row.modules) owners.set(ownerOf(module.id), (owners.get(ownerOf(module.id)) ?? 0) + module.renderedBytes)
  console.log(`\n${row.name}: ${kb(row.eagerGzipBytes)} gzip; where it goes (rendered bytes before minification, share, estimated gzip)`)
  console.log('| owner or module | rendered | share | ≈ gzip |')
  console.log('|---|---|---|---|')
  for (const [owner, bytes] of [...owners].sort((first, second) => second[1] - first[1]))
    console.log(`| **${owner}** | ${bytes} | ${share(bytes)} | ${estimate(bytes)} |`)
  for (const module of row.modules.slice(0, 25))
    console.log(`| ${module.id} | ${module.renderedBytes} | ${share(module.renderedBytes)} | ${estimate(module.renderedBytes)} |`)
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const folder = await mkdtemp(join(tmpdir(), 'threadlens-sizes-'))
try {
  const rows: Measured[] = []
  for (const { name, code, target } of entries) rows.push(await measure(folder, name, code, target))
  console.log('| entry point (built packages, Vite, minified) | eager min | eager min+gzip | target | lazy min+gzip (tokenizer, panel) |')
  console.log('|---|---|---|---|---|')
  for (const row of rows) {
    const verdict = row.target === undefined ? '—' : `${row.target} KB ${row.eagerGzipBytes <= row.target * 1024 ? 'met' : 'MISSED'}`
    console.log(`| ${row.name} | ${kb(row.eagerMinBytes)} | ${kb(row.eagerGzipBytes)} | ${verdict} | ${kb(row.lazyGzipBytes)} |`)
  }
  const everything = rows.find((row) => row.name === 'core: everything') as Measured
  const withStore = rows.find((row) => row.name === 'core + store: everything') as Measured
  const withSync = rows.find((row) => row.name === 'core + store + sync: everything') as Measured
  const syncAdds = withSync.eagerGzipBytes - withStore.eagerGzipBytes
  console.log(
    `\nsync adds ${kb(syncAdds)} gzip to core + store (target 20 KB ${syncAdds <= 20 * 1024 ? 'met' : 'MISSED'}); an app that does not import it pays 0 (a package of its own).`,
  )
  const subpaths: { specifier: string; alone: Measured; withCore: Measured }[] = []
  for (const { specifier, alone, withCore } of subpathRows) {
    subpaths.push({
      specifier,
      alone: await measure(folder, alone.name, alone.code, undefined),
      withCore: await measure(folder, withCore.name, withCore.code, undefined),
    })
  }
  console.log(
    `\n| core subpath (built, Vite, minified) | alone: eager min+gzip | added to core's main entry (${kb(everything.eagerGzipBytes)}) | lazy min+gzip |`,
  )
  console.log('|---|---|---|---|')
  for (const { specifier, alone, withCore } of subpaths) {
    const added = withCore.eagerGzipBytes - everything.eagerGzipBytes
    console.log(`| ${specifier} | ${kb(alone.eagerGzipBytes)} | +${kb(Math.max(0, added))} | ${kb(alone.lazyGzipBytes)} |`)
  }
  if (explain) {
    for (const row of rows.filter((candidate) => candidate.target !== undefined)) printExplanation(row)
    // The first row is core's first line; each behaviour is priced by building its code again without it.
    const line = rows[0] as Measured
    const { code } = entries[0] as (typeof entries)[number]
    console.log(`\n${line.name}: what each behaviour costs (the line built again without it)`)
    console.log('| behaviour | built module | line without it | saving |')
    console.log('|---|---|---|---|')
    for (const behaviour of firstLineBehaviours) {
      const bare = await measure(folder, `${line.name} without ${behaviour.module}`, code, undefined, [without(behaviour)])
      console.log(`| ${behaviour.name} | ${behaviour.module} | ${bare.eagerGzipBytes} B | ${line.eagerGzipBytes - bare.eagerGzipBytes} B |`)
    }
  }
  await mkdir(join(repo, 'bench-results'), { recursive: true })
  const summary = (row: Measured) => ({ ...row, modules: undefined })
  await writeFile(
    join(repo, 'bench-results', 'bundle-sizes.json'),
    JSON.stringify(
      {
        entries: rows.map(summary),
        coreSubpaths: subpaths.map(({ specifier, alone, withCore }) => ({ specifier, alone: summary(alone), withCore: summary(withCore) })),
      },
      null,
      2,
    ),
  )
} finally {
  await rm(folder, { recursive: true, force: true })
}
