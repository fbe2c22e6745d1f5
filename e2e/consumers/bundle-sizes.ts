// `npm run bench` step: what an app downloads eagerly for each entry point, measured on the BUILT
// packages (dist/, as published) the way an app bundles them: Vite, minified, tree-shaken, then gzip.
// Chunks reached only through a dynamic import (the tokenizer ranks, the devtools panel body) are
// lazy and excluded; react and react-dom are excluded (the app has them anyway). Run
// `npm run build` first. Prints a table and writes bench-results/bundle-sizes.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Rolldown } from 'vite'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const dist = (folder: string, entry = 'index') => join(repo, folder, 'dist', `${entry}.js`)
/** `@threadlens/<package>[/<subpath>]` → that package's built file, as its `publishConfig.exports` maps it. */
const alias = [
  { find: /^@threadlens\/devtools\/production$/, replacement: dist('devtools', 'production') },
  { find: /^@threadlens\/devtools$/, replacement: dist('devtools') },
  { find: /^@threadlens\/(core|store|agent|client|react|ai-sdk)\/([a-z-]+)$/, replacement: join(repo, 'packages', '$1', 'dist', '$2.js') },
  { find: /^@threadlens\/(core|store|agent|client|react|ai-sdk)$/, replacement: join(repo, 'packages', '$1', 'dist', 'index.js') },
]

interface Measured {
  readonly name: string
  readonly target: number | undefined
  readonly eagerMinBytes: number
  readonly eagerGzipBytes: number
  readonly lazyGzipBytes: number
}

/** Each line keeps what it imports alive with a side effect, so tree-shaking keeps exactly that. */
const entries: { readonly name: string; readonly target?: number; readonly code: string }[] = [
  { name: 'core: project + createThread + definePolicy', target: 15, code: `import { project, createThread, definePolicy } from '@threadlens/core'\nconsole.log(project, createThread, definePolicy)` },
  { name: 'core: + policyForModel (model metadata)', code: `import { project, createThread, definePolicy } from '@threadlens/core'\nimport { policyForModel } from '@threadlens/core/models'\nconsole.log(project, createThread, definePolicy, policyForModel)` },
  { name: 'core: everything', target: 25, code: `import * as core from '@threadlens/core'\nconsole.log(core)` },
  { name: 'core + store: everything', target: 60, code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nconsole.log(core, store)` },
  { name: 'core + store + agent: everything', code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nimport * as agent from '@threadlens/agent'\nconsole.log(core, store, agent)` },
  { name: '+ react: everything', code: `import * as core from '@threadlens/core'\nimport * as store from '@threadlens/store'\nimport * as agent from '@threadlens/agent'\nimport * as react from '@threadlens/react'\nconsole.log(core, store, agent, react)` },
  { name: 'devtools (root), development build', code: `import * as devtools from '@threadlens/devtools'\nconsole.log(devtools)` },
  { name: 'devtools (root), production build: renders nothing', code: `import * as devtools from '@threadlens/devtools'\nconsole.log(devtools)` },
  { name: 'devtools/production', code: `import * as devtools from '@threadlens/devtools/production'\nconsole.log(devtools)` },
  { name: 'ai-sdk: everything (ai excluded)', code: `import * as adapter from '@threadlens/ai-sdk'\nconsole.log(adapter)` },
]

function isChunk(output: Rolldown.OutputChunk | Rolldown.OutputAsset): output is Rolldown.OutputChunk {
  return output.type === 'chunk'
}

async function measure(folder: string, name: string, code: string, target: number | undefined): Promise<Measured> {
  const entry = join(folder, `${entries.findIndex((candidate) => candidate.name === name)}.js`)
  await writeFile(entry, code)
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    root: folder,
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
  }
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
  await mkdir(join(repo, 'bench-results'), { recursive: true })
  await writeFile(join(repo, 'bench-results', 'bundle-sizes.json'), JSON.stringify(rows, null, 2))
} finally {
  await rm(folder, { recursive: true, force: true })
}
