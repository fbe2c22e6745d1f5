/**
 * The demo's first load, gzip-sized from the production build (no browser): index.html, its entry
 * script and stylesheets, and every chunk they import statically (followed through the chunks'
 * own `import` statements), with the chat route the entry loads at once. Other dynamic imports are
 * listed apart: the tokenizer's ranks and the sending part (requested at the first interaction), the
 * devtools panel body (when the panel opens: at once on a wide first visit), Dexie (when the stores
 * open, right after the first paint), the lab. What a browser actually fetches before any interaction
 * is measured in Chromium by e2e/chat-first-load.spec.ts. Prints a table; writes
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
const staticImport = /(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g
const dynamicImport = /import\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g
// The chat at `/` is a lazy route the entry imports at once: it is part of the first load.
const firstRoute = 'chat-app'

function chunkPath(name: string): string {
  return `assets/${name}`
}

const html = readFileSync(join(dist, 'index.html'), 'utf8')
const first = new Set<string>()
const queue: string[] = []
for (const match of html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)) {
  const path = match[1] as string
  if (!first.has(path)) {
    first.add(path)
    if (path.endsWith('.js')) queue.push(path)
  }
}
const later = new Set<string>()
const assets = readdirSync(join(dist, 'assets'))
for (const name of assets.filter((file) => file.startsWith(`${firstRoute}-`))) {
  const path = chunkPath(name)
  first.add(path)
  if (path.endsWith('.js')) queue.push(path)
}
while (queue.length > 0) {
  const path = queue.pop() as string
  const code = readFileSync(join(dist, path), 'utf8')
  for (const match of code.matchAll(staticImport)) {
    const next = chunkPath(match[1] as string)
    if (!first.has(next)) {
      first.add(next)
      queue.push(next)
    }
  }
  for (const match of code.matchAll(dynamicImport)) later.add(chunkPath(match[1] as string))
}
for (const path of first) later.delete(path)

const rows = [...first].map((path) => ({ path, gzip: gzip(path) })).sort((a, b) => b.gzip - a.gzip)
const htmlBytes = gzipSync(html).length
const total = rows.reduce((sum, row) => sum + row.gzip, htmlBytes)
const lazy = [...later].filter((path) => assets.includes(path.slice('assets/'.length))).map((path) => ({ path, gzip: gzip(path) }))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

console.log(`Demo first load at / (gzip, level 9), from demo/dist: the entry, the ${firstRoute} route and their static imports`)
console.log(`  ${'index.html'.padEnd(48)} ${kb(htmlBytes).padStart(10)}`)
for (const row of rows) console.log(`  ${row.path.padEnd(48)} ${kb(row.gzip).padStart(10)}`)
console.log(`  ${'total: entry, chat route, static imports'.padEnd(48)} ${kb(total).padStart(10)}   goal < ${kb(goalBytes)}: ${total < goalBytes ? 'met' : 'NOT met'}`)
console.log(`Loaded later (dynamic imports: at the first interaction, when a view opens or the stores do): ${lazy.length} chunks, ${kb(lazy.reduce((sum, row) => sum + row.gzip, 0))}`)
for (const row of lazy.sort((a, b) => b.gzip - a.gzip).slice(0, 6)) console.log(`  ${row.path.padEnd(48)} ${kb(row.gzip).padStart(10)}`)

// What the first load is made of, by owner: each chunk's gzip size shared out by its modules'
// rendered lengths (written by demo/vite.config.ts), so the figures are estimates.
const modulesFile = join(dist, '.vite/chunk-modules.json')
const owners = new Map<string, number>()
if (existsSync(modulesFile)) {
  const chunks = JSON.parse(readFileSync(modulesFile, 'utf8')) as { fileName: string; modules: { id: string; renderedBytes: number }[] }[]
  for (const row of rows) {
    const chunk = chunks.find((candidate) => candidate.fileName === row.path)
    if (chunk === undefined) {
      owners.set(row.path.endsWith('.css') ? 'stylesheets' : row.path, (owners.get(row.path) ?? 0) + row.gzip)
      continue
    }
    const total = chunk.modules.reduce((sum, module) => sum + module.renderedBytes, 0)
    for (const module of chunk.modules) {
      if (total === 0) break
      const owner = ownerOf(module.id)
      owners.set(owner, (owners.get(owner) ?? 0) + (row.gzip * module.renderedBytes) / total)
    }
  }
  console.log('What the first load holds, by owner (≈ gzip, estimated from rendered module lengths):')
  for (const [owner, bytes] of [...owners].sort((first, second) => second[1] - first[1]).slice(0, 14)) console.log(`  ${owner.padEnd(48)} ${kb(bytes).padStart(10)}`)
}

/** A dependency (`dexie`, `react-dom`), a package of the repo (`packages/agent`) or a demo folder (`demo/src/chat`). */
function ownerOf(module: string): string {
  const parts = module.split('/')
  if (parts[0] === 'packages' || parts[0] === 'devtools') return parts.slice(0, parts[0] === 'packages' ? 2 : 1).join('/')
  if (parts[0] === 'demo') return parts.slice(0, 3).join('/')
  return parts[0]?.startsWith('@') === true ? parts.slice(0, 2).join('/') : (parts[0] ?? module)
}

mkdirSync(join(repo, 'bench-results'), { recursive: true })
writeFileSync(join(repo, 'bench-results/first-load-size.json'), `${JSON.stringify({ totalGzipBytes: total, goalBytes, files: rows, lazy, owners: Object.fromEntries(owners) }, null, 2)}\n`)
