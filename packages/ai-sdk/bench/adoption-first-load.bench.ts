// `npm run bench` step: what adopting threadlens costs a `useChat` app's first load. The README's two
// apps (examples/minimal-chat.tsx and the same app with threadlens, examples/adopted-chat.tsx) are
// built for production by Vite from the built packages (run `npm run build` first), served from
// loopback, and loaded in turn in headless Chromium, five times each: the bytes fetched before any
// interaction (gzip), first contentful paint, when the message box can be typed in, when Send can be
// pressed (the stored history shown: the adopted app paints before IndexedDB answers), and whether
// (and when) the tokenizer was fetched. Prints medians side by side; fails on nothing.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium, type BrowserContext } from '@playwright/test'
import { build } from 'vite'
import { chromiumArgs, chromiumExecutable } from '../../../e2e/chromium'
import { distAliases } from '../../../e2e/consumers/dist-aliases'

const here = fileURLToPath(new URL('.', import.meta.url))
// Inside the package, so `react`, `ai` and `@ai-sdk/react` resolve as they do for the examples.
const work = join(here, '../node_modules/.adoption-bench')
const apps = [
  { name: 'without threadlens', example: 'minimal-chat.tsx' },
  { name: 'with threadlens', example: 'adopted-chat.tsx' },
] as const
const loads = Number(process.env['THREADLENS_BENCH_LOADS'] ?? 5)
// The exact tokenizer: its ranks and its encoder (gpt-tokenizer's GptEncoding and model mapping), all
// fetched together after first paint, reported by when rather than counted in the first-load bytes.
const tokenizerChunk = /\/assets\/(o200k_base|cl100k_base|GptEncoding|mapping)-/

async function buildApp(name: string, example: string): Promise<string> {
  const root = join(work, name.replaceAll(' ', '-'))
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  await writeFile(
    join(root, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>chat</title></head><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
  )
  await writeFile(
    join(root, 'main.tsx'),
    `import { Suspense } from 'react'\nimport { createRoot } from 'react-dom/client'\nimport { Chat } from ${JSON.stringify(join(here, '../examples', example))}\n` +
      `;(window as { modulesEvaluatedAt?: number }).modulesEvaluatedAt = performance.now()\n` +
      `createRoot(document.getElementById('root')!).render(<Suspense fallback={null}><Chat /></Suspense>)\n`,
  )
  await build({
    configFile: false,
    logLevel: 'silent',
    root,
    resolve: { alias: distAliases },
    oxc: { jsx: { runtime: 'automatic' } },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: { outDir: join(root, 'dist'), emptyOutDir: true, target: 'es2022' },
  })
  return join(root, 'dist')
}

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

/**
 * A static server for one built app over HTTP/1.1, as `vite preview` serves it, with each file
 * gzipped once beforehand (as a production host sends it, and so no compression time per request).
 */
async function serve(dist: string): Promise<{ readonly server: Server; readonly origin: string }> {
  const files = new Map<string, Buffer>()
  const add = async (path: string) => files.set(path, gzipSync(await readFile(join(dist, path)), { level: 9 }))
  await add('index.html')
  for (const name of await readdir(join(dist, 'assets'))) await add(`assets/${name}`)
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.slice(1) || 'index.html'
    const body = files.get(path)
    if (body === undefined) {
      response.writeHead(404)
      response.end()
      return
    }
    response.writeHead(200, {
      'content-type': types[extname(path)] ?? 'application/octet-stream',
      'content-encoding': 'gzip',
      'content-length': body.length,
      'cache-control': 'no-store',
    })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

interface Load {
  /** Gzip bytes the page had received when its message box was ready (what the first render needed). */
  readonly criticalBytes: number
  /** Gzip bytes it fetched after that on its own, before any interaction, the tokenizer apart. */
  readonly laterBytes: number
  readonly firstPaintMs: number
  readonly inputReadyMs: number
  /** When Send could be pressed: the stored history shown (the app without threadlens has none to wait for). */
  readonly sendReadyMs: number
  readonly tokenizerAtMs: number | undefined
  /** The longest task (≥ 50 ms) that started after the box was ready: what would delay a keystroke, e.g. the tokenizer's load. */
  readonly longestLaterTaskMs: number
}

interface Fetched {
  readonly name: string
  readonly bytes: number
  readonly endMs: number
}

interface Figures {
  readonly critical: number
  readonly later: number
  readonly paint: number
  readonly input: number
  readonly send: number
  readonly laterTask: number
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

// long: one measured page load, start to finish, with its probes
async function measureLoad(context: BrowserContext, origin: string): Promise<Load> {
  const page = await context.newPage()
  // When the message box first exists and can be typed in, stamped by the page itself.
  // (A string: tsx would wrap a function's inner helpers in a `__name` the page does not have.)
  await page.addInitScript(`
    const stamp = () => {
      const input = document.querySelector('input[aria-label="Message"]')
      if (input !== null && !input.disabled && window.inputReadyAt === undefined) window.inputReadyAt = performance.now()
      const send = document.querySelector('button[type="submit"]')
      if (send !== null && !send.disabled && window.sendReadyAt === undefined) window.sendReadyAt = performance.now()
    }
    new MutationObserver(stamp).observe(document, { subtree: true, childList: true, attributes: true })
    window.longTasks = []
    window.longFrames = []
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.longFrames.push([Math.round(entry.startTime), Math.round(entry.duration), ...entry.scripts.filter((script) => script.duration >= 20).map((script) => script.sourceURL.split('/').pop() + ' ' + script.invoker + ' ' + Math.round(script.duration))]) }).observe({ type: 'long-animation-frame', buffered: true })
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]) }).observe({ type: 'longtask', buffered: true })
  `)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(origin)
  await page
    .waitForFunction('window.inputReadyAt !== undefined && window.sendReadyAt !== undefined', undefined, { timeout: 30_000 })
    .catch((error: unknown) => {
      throw new Error(`${origin}: the message box never became ready (${errors.join('; ') || 'no page error'})`, { cause: error })
    })
  // Whatever the page fetches on its own (idle callbacks included) has had time to.
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1_500)
  // Resource Timing: each response's gzip body size and when it ended, on the page's own clock.
  const timings = (await page.evaluate(`({
    firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    inputReadyMs: window.inputReadyAt,
    sendReadyMs: window.sendReadyAt,
    modulesEvaluatedMs: window.modulesEvaluatedAt,
    longTasks: window.longTasks,
    longFrames: window.longFrames,
    fetched: [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => ({ name: entry.name, bytes: entry.encodedBodySize, endMs: entry.responseEnd })),
  })`)) as {
    readonly firstPaintMs: number
    readonly inputReadyMs: number
    readonly sendReadyMs: number
    readonly modulesEvaluatedMs: number
    readonly longTasks: readonly (readonly [number, number])[]
    readonly longFrames: readonly unknown[]
    readonly fetched: readonly Fetched[]
  }
  const { fetched, ...probes } = timings
  if (process.env['THREADLENS_BENCH_VERBOSE'] !== undefined) {
    console.log(`${origin} ${JSON.stringify(probes)}`)
    for (const response of fetched)
      console.log(
        `  ${response.endMs.toFixed(0).padStart(5)} ms ${(response.bytes / 1024).toFixed(1).padStart(7)} KB ${new URL(response.name).pathname}`,
      )
  }
  const tokenizer = fetched.filter((response) => tokenizerChunk.test(response.name))
  // The ranks are fetched after first paint by design: reported by when, not counted in the bytes.
  const rest = fetched.filter((response) => !tokenizerChunk.test(response.name))
  const sum = (responses: readonly Fetched[]) => responses.reduce((total, response) => total + response.bytes, 0)
  const load: Load = {
    criticalBytes: sum(rest.filter((response) => response.endMs <= timings.inputReadyMs)),
    laterBytes: sum(rest.filter((response) => response.endMs > timings.inputReadyMs)),
    firstPaintMs: timings.firstPaintMs,
    inputReadyMs: timings.inputReadyMs,
    sendReadyMs: timings.sendReadyMs,
    tokenizerAtMs: tokenizer.length === 0 ? undefined : Math.max(...tokenizer.map((response) => response.endMs)),
    longestLaterTaskMs: Math.max(0, ...timings.longTasks.filter(([start]) => start >= timings.inputReadyMs).map(([, duration]) => duration)),
  }
  await page.close()
  return load
}

async function main(): Promise<void> {
  const built = await Promise.all(apps.map(async (app) => ({ ...app, dist: await buildApp(app.name, app.example) })))
  const served = await Promise.all(built.map(async (app) => ({ ...app, ...(await serve(app.dist)) })))
  const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
  const visits = ['first visit', 'returning visit'] as const
  const rows = apps.flatMap((app) => visits.map((visit) => `${app.name}, ${visit}`))
  const results = new Map<string, Load[]>(rows.map((row) => [row, []]))
  try {
    // Interleaved, so both apps see the same machine load. A first visit creates the database; the
    // returning visit (same profile, HTTP cache off) opens it with the chat already in it.
    for (let round = 0; round < loads; round++) {
      for (const app of served) {
        const context = await browser.newContext()
        for (const visit of visits) results.get(`${app.name}, ${visit}`)?.push(await measureLoad(context, app.origin))
        await context.close()
      }
    }
  } finally {
    await browser.close()
    for (const app of served) app.server.close()
  }
  console.log(`Adoption first load: the README's useChat app without and with threadlens (production builds, gzip, median of ${loads} loads)`)
  console.log(
    '| app | KB until the box is ready | KB after, before any interaction (tokenizer apart) | first contentful paint | message box ready | Send ready (history shown) | tokenizer fetched | longest task once the box is ready (all loads) |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---|---:|')
  const medians = new Map<string, Figures>()
  for (const row of rows) {
    const runs = results.get(row) ?? []
    const tokenizer = runs.map((run) => run.tokenizerAtMs).filter((at): at is number => at !== undefined)
    const figures: Figures = {
      critical: median(runs.map((run) => run.criticalBytes)),
      later: median(runs.map((run) => run.laterBytes)),
      paint: median(runs.map((run) => run.firstPaintMs)),
      input: median(runs.map((run) => run.inputReadyMs)),
      send: median(runs.map((run) => run.sendReadyMs)),
      laterTask: Math.max(...runs.map((run) => run.longestLaterTaskMs)),
    }
    medians.set(row, figures)
    console.log(
      `| ${row} | ${(figures.critical / 1024).toFixed(1)} | ${(figures.later / 1024).toFixed(1)} | ${figures.paint.toFixed(0)} ms | ${figures.input.toFixed(0)} ms | ${figures.send.toFixed(0)} ms | ${tokenizer.length === 0 ? 'no' : `${tokenizer.length}/${runs.length} loads, done at ${median(tokenizer).toFixed(0)} ms`} | ${figures.laterTask === 0 ? 'none ≥ 50 ms' : `${figures.laterTask.toFixed(0)} ms`} |`,
    )
  }
  for (const visit of visits) {
    const without = medians.get(`${apps[0].name}, ${visit}`) as Figures
    const adopted = medians.get(`${apps[1].name}, ${visit}`) as Figures
    const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)} ms`
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
    console.log(
      `\n${visit}: threadlens adds ${kb(adopted.critical - without.critical)} gzip until the box is ready, ${kb(adopted.critical + adopted.later - without.critical - without.later)} before any interaction with what it fetches once painted, tokenizer not counted (goal ≤ 60 KB);`,
    )
    console.log(
      `  first paint ${signed(adopted.paint - without.paint)}, message box ready ${signed(adopted.input - without.input)} (goal ≤ 100 ms each)`,
    )
  }
  if (process.env['THREADLENS_BENCH_KEEP'] === undefined) await rm(work, { recursive: true, force: true })
}

await main()
