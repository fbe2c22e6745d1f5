/**
 * The demo's first load, gzip-sized from the production build (no browser): index.html, its entry
 * script and stylesheets, and every chunk they import statically (followed through the chunks'
 * own `import` statements), with the chat route the entry loads at once. Then what a visit adds
 * before any interaction: Dexie, when the stores open right after the first paint (what a 390 px
 * visit fetches), and the devtools panel's first view (the panel body and its Projection tab,
 * which a 1440 px first visit opens docked). Other dynamic imports are listed apart: the
 * tokenizer's ranks and the sending part (requested at the first interaction), the other tabs,
 * the lab. e2e/chat-first-load.spec.ts measures the same in Chromium. Prints a table; writes
 * bench-results/first-load-size.json. Goal: under 200 KB gzip before the first message.
 *
 * Run: `npm run size` (builds the demo first).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..')
const dist = join(repo, 'demo/dist')
const goalBytes = 200 * 1024

const gzip = (path: string) => gzipSync(readFileSync(join(dist, path)), { level: 9 }).length

// `import "./x.js"`, `import {a} from "./x.js"` and `export … from "./x.js"`; `import("./x.js")` is dynamic.
// Rolldown writes specifiers with backticks as well as quotes.
const staticImport = /(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'`]\.\/([\w.~-]+\.js)["'`]/g
const dynamicImport = /import\(\s*["'`]\.\/([\w.~-]+\.js)["'`]\s*\)/g
// The chat at `/` is a lazy route the entry imports at once: it is part of the first load.
const firstRoute = 'chat-app'

interface ChunkModules {
  readonly fileName: string
  readonly modules: readonly { readonly id: string; readonly gzipBytes: number }[]
}
// Each chunk's modules (written by demo/vite.config.ts).
const modulesFile = join(dist, '.vite/chunk-modules.json')
const chunks = existsSync(modulesFile) ? (JSON.parse(readFileSync(modulesFile, 'utf8')) as ChunkModules[]) : []

/** The chunk that holds `moduleId` (`dexie/dist/dexie.js`, `devtools/src/panel/panel.tsx`). */
function chunkOf(moduleId: string): string {
  const chunk = chunks.find((candidate) => candidate.modules.some((module) => module.id === moduleId))
  if (chunk === undefined) throw new Error(`[threadlens] first-load-size: no chunk holds ${moduleId}; rebuild the demo (npm run size)`)
  return chunk.fileName
}

const html = readFileSync(join(dist, 'index.html'), 'utf8')
const assets = readdirSync(join(dist, 'assets'))
const later = new Set<string>()

/** `starts` and every chunk they import statically, minus `known`. */
function withStaticImports(starts: readonly string[], known: ReadonlySet<string> = new Set()): Set<string> {
  const found = new Set<string>()
  const queue: string[] = []
  for (const path of starts) {
    if (known.has(path) || found.has(path)) continue
    found.add(path)
    if (path.endsWith('.js')) queue.push(path)
  }
  while (queue.length > 0) {
    const code = readFileSync(join(dist, queue.pop() as string), 'utf8')
    for (const match of code.matchAll(staticImport)) {
      const next = `assets/${match[1] as string}`
      if (known.has(next) || found.has(next)) continue
      found.add(next)
      queue.push(next)
    }
    for (const match of code.matchAll(dynamicImport)) later.add(`assets/${match[1] as string}`)
  }
  return found
}

const entry = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1] as string)
const route = assets.filter((file) => file.startsWith(`${firstRoute}-`)).map((file) => `assets/${file}`)
const first = withStaticImports([...entry, ...route])
const stores = withStaticImports([chunkOf('dexie/dist/dexie.js')], first)
const panel = withStaticImports(
  [chunkOf('devtools/src/panel/panel.tsx'), chunkOf('devtools/src/tabs/projection/projection-tab.tsx')],
  new Set([...first, ...stores]),
)
for (const path of [...first, ...stores, ...panel]) later.delete(path)

const sized = (paths: Iterable<string>) => [...paths].map((path) => ({ path, gzip: gzip(path) })).sort((a, b) => b.gzip - a.gzip)
const sum = (rows: readonly { gzip: number }[]) => rows.reduce((total, row) => total + row.gzip, 0)
const rows = sized(first)
const storeRows = sized(stores)
const panelRows = sized(panel)
const htmlBytes = gzipSync(html).length
const total = htmlBytes + sum(rows)
const narrow = total + sum(storeRows)
const wide = narrow + sum(panelRows)
const lazy = sized([...later].filter((path) => assets.includes(path.slice('assets/'.length))))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const goal = (bytes: number) => `goal < ${kb(goalBytes)}: ${bytes < goalBytes ? 'met' : 'NOT met'}`
const line = (label: string, bytes: number, note = '') =>
  console.log(`  ${label.padEnd(60)} ${kb(bytes).padStart(10)}${note === '' ? '' : `   ${note}`}`)

console.log(`Demo first load at / (gzip, level 9), from demo/dist: the entry, the ${firstRoute} route and their static imports`)
line('index.html', htmlBytes)
for (const row of rows) line(row.path, row.gzip)
line('total: entry, chat route, static imports', total)
for (const row of storeRows) line(`+ ${row.path}`, row.gzip)
line('= with the stores open (a 390 px visit, before any input)', narrow, goal(narrow))
for (const row of panelRows) line(`+ ${row.path}`, row.gzip)
line('= with the panel docked open (a 1440 px first visit)', wide, goal(wide))
console.log(`Loaded later (dynamic imports: at the first interaction, when a view or a tab opens): ${lazy.length} chunks, ${kb(sum(lazy))}`)
for (const row of lazy.slice(0, 6)) line(row.path, row.gzip)

// What the wide first visit's download is made of, by owner: each chunk's gzip size shared out by
// the gzip sizes of its modules' rendered code taken one by one, so the figures are estimates.
const owners = new Map<string, number>()
if (chunks.length > 0) {
  for (const row of [...rows, ...storeRows, ...panelRows]) {
    const chunk = chunks.find((candidate) => candidate.fileName === row.path)
    if (chunk === undefined) {
      const owner = row.path.endsWith('.css') ? 'stylesheets' : row.path
      owners.set(owner, (owners.get(owner) ?? 0) + row.gzip)
      continue
    }
    const total = chunk.modules.reduce((sum, module) => sum + module.gzipBytes, 0)
    for (const module of chunk.modules) {
      if (total === 0) break
      const owner = ownerOf(module.id)
      owners.set(owner, (owners.get(owner) ?? 0) + (row.gzip * module.gzipBytes) / total)
    }
  }
  console.log("What the 1440 px first visit downloads, by owner (≈ gzip: each chunk's size shared out by its modules' code gzipped alone):")
  for (const [owner, bytes] of [...owners].sort((first, second) => second[1] - first[1]).slice(0, 14))
    console.log(`  ${owner.padEnd(48)} ${kb(bytes).padStart(10)}`)
}

/** A dependency (`dexie`, `react-dom`), a package of the repo (`packages/agent`) or a demo folder (`demo/src/chat`). */
function ownerOf(module: string): string {
  const parts = module.split('/')
  if (parts[0] === 'packages' || parts[0] === 'devtools') return parts.slice(0, parts[0] === 'packages' ? 2 : 1).join('/')
  if (parts[0] === 'demo') return parts.slice(0, 3).join('/')
  return parts[0]?.startsWith('@') === true ? parts.slice(0, 2).join('/') : (parts[0] ?? module)
}

mkdirSync(join(repo, 'bench-results'), { recursive: true })
writeFileSync(
  join(repo, 'bench-results/first-load-size.json'),
  `${JSON.stringify({ totalGzipBytes: total, withStoresGzipBytes: narrow, withPanelGzipBytes: wide, goalBytes, files: rows, stores: storeRows, panel: panelRows, lazy, owners: Object.fromEntries(owners) }, null, 2)}\n`,
)
