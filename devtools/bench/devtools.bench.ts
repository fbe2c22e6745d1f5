/**
 * Devtools bench (headless Chromium, against the built demo):
 * - what the app downloads with the panel closed vs open (gzip, as served);
 * - panel open time with a 10,000-entry thread (cold: chunk + thread load, to the meter and newest
 *   rows and to the whole thread; warm: re-open);
 * - append → new entry painted in the open panel's timeline (median of 30);
 * Painted is timed two ways. `frame`: the end of the frame that paints the change, a user-blocking
 * task posted from that frame's animation-frame callback (it runs once the frame's style, layout and
 * paint are done, ahead of other queued tasks). `late` (the figure of earlier rounds): a
 * `setTimeout(0)` from the animation frame after the change was seen, which also waits for tasks
 * queued meanwhile (IndexedDB events, the thread list's re-query) and, for the open, one more frame.
 * - longest main-thread task (PerformanceObserver 'longtask') and longest frame while 100 entries
 *   are appended in a burst.
 * Prints a table and writes bench-results/devtools.json. Fails on nothing: the goals are printed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { build, type Rolldown } from 'vite'
import { chromiumArgs, chromiumExecutable } from '../../e2e/chromium.ts'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const port = Number(process.env['THREADLENS_BENCH_PORT'] ?? 4175)
const origin = `http://127.0.0.1:${port}`
const entries = 10_000
const appendSamples = 30
const burst = 100
/** The goals of issue 13 (devtools 2), printed beside the figures. */
const goals = { coldOpenMs: 200, appendToPaintMedianMs: 16 }

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
  })
}

async function startPreview(): Promise<ChildProcess> {
  const child = spawn(
    'node_modules/.bin/vite',
    ['preview', '--config', 'demo/vite.config.ts', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: repo, stdio: 'ignore' },
  )
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(origin)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill()
  throw new Error(`[threadlens] vite preview did not answer on ${origin}`)
}

const dist = join(repo, 'demo/dist')
const gzipCache = new Map<string, number>()
function gzipSize(path: string): number {
  let size = gzipCache.get(path)
  if (size === undefined) gzipCache.set(path, (size = gzipSync(readFileSync(path), { level: 9 }).length))
  return size
}

/** JS and CSS the page fetched from the demo's build, by file, gzip-sized as served. */
function downloadedAssets(urls: Iterable<string>): Map<string, number> {
  const assets = new Map<string, number>()
  for (const url of urls) {
    const path = new URL(url).pathname
    if (!/\.(js|css)$/.test(path)) continue
    assets.set(path, gzipSize(join(dist, path)))
  }
  return assets
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/**
 * In the page, from an animation-frame callback: resolves with `performance.now()` once this
 * frame's rendering is done (a user-blocking task runs before tasks queued at normal priority).
 */
const frameEndScript = `globalThis.__threadlensFrameEnd = () => new Promise((resolve) => {
  const done = () => resolve(performance.now())
  if (globalThis.scheduler?.postTask) globalThis.scheduler.postTask(done, { priority: 'user-blocking' })
  else { const channel = new MessageChannel(); channel.port1.onmessage = done; channel.port2.postMessage(0) }
})`

/**
 * In the page: clicks the toggle; `firstRows` when the panel shows the compact meter and the
 * thread's newest row (painted), `whole` when the timeline holds every entry of the thread.
 */
async function openTime(page: Page, lastSeq: number): Promise<{ firstRows: number; firstRowsLate: number; whole: number; wholeLate: number }> {
  return page.evaluate(async (seq) => {
    const root = document.querySelector('[data-testid="threadlens-devtools"]')?.shadowRoot as ShadowRoot
    const frameEnd = (globalThis as unknown as { __threadlensFrameEnd: () => Promise<number> }).__threadlensFrameEnd
    const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const until = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (test() ? resolve() : requestAnimationFrame(check))
        check()
      })
    const started = performance.now()
    ;(root.querySelector('[data-testid="devtools-toggle"]') as HTMLElement).click()
    await until(
      () =>
        root.querySelector(`[data-testid="timeline-row"][data-seq="${seq}"]`) !== null &&
        root.querySelector('[data-testid="meter-compact"]') !== null,
    )
    // `until` saw the row in an animation-frame callback: this frame paints it.
    const firstRows = (await frameEnd()) - started
    await painted()
    const firstRowsLate = performance.now() - started
    await until(() => root.querySelector(`[data-testid="timeline-count"][data-complete="true"][data-total="${seq + 1}"]`) !== null)
    const whole = (await frameEnd()) - started
    await painted()
    return { firstRows, firstRowsLate, whole, wholeLate: performance.now() - started }
  }, lastSeq)
}

async function closePanel(page: Page): Promise<void> {
  await page.getByTestId('threadlens-devtools').getByTestId('devtools-close').click()
  await page.getByTestId('threadlens-devtools').getByTestId('devtools-toggle').waitFor()
}

/**
 * In the page: one append through the store, timed until its row is in the DOM and painted. Also
 * returns where the time went: `inDom` (the store's write and the panel's render, until the row is
 * in the DOM), `toFrame` (from then until the frame starts: the rest of that task and whatever
 * tasks come first) and `frameWork` (the frame's own work: style, layout, paint).
 */
async function appendToPaint(page: Page, seq: number): Promise<{ frame: number; late: number; inDom: number; toFrame: number; frameWork: number }> {
  return page.evaluate(async (expected) => {
    const frameEnd = (globalThis as unknown as { __threadlensFrameEnd: () => Promise<number> }).__threadlensFrameEnd
    const root = document.querySelector('[data-testid="threadlens-devtools"]')?.shadowRoot as ShadowRoot
    const demo = (window as unknown as { __threadlensDemo: { append(count: number): Promise<void> } }).__threadlensDemo
    const selector = `[data-testid="timeline-row"][data-seq="${expected}"]`
    const painted = new Promise<{ frame: number; late: number; inDom: number; frameStart: number }>((resolve) => {
      const observer = new MutationObserver(() => {
        if (root.querySelector(selector) === null) return
        observer.disconnect()
        const inDom = performance.now()
        // The row is in the DOM: the next frame paints it.
        requestAnimationFrame(() => {
          const frameStart = performance.now()
          const frame = frameEnd()
          setTimeout(() => void frame.then((end) => resolve({ frame: end, late: performance.now(), inDom, frameStart })), 0)
        })
      })
      observer.observe(root, { childList: true, subtree: true })
    })
    const started = performance.now()
    void demo.append(1)
    const { frame, late, inDom, frameStart } = await painted
    return { frame: frame - started, late: late - started, inDom: inDom - started, toFrame: frameStart - inDom, frameWork: frame - frameStart }
  }, seq)
}

/** In the page: 100 appends at once; the longest task and frame until the last row is painted. */
async function burstAppend(page: Page, lastSeq: number): Promise<{ longestTask: number; longTasks: number; longestFrame: number; totalMs: number }> {
  return page.evaluate(
    async ({ count, last }) => {
      const root = document.querySelector('[data-testid="threadlens-devtools"]')?.shadowRoot as ShadowRoot
      const demo = (window as unknown as { __threadlensDemo: { append(count: number): Promise<void> } }).__threadlensDemo
      const tasks: number[] = []
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration)
      })
      observer.observe({ type: 'longtask', buffered: false })
      let longestFrame = 0
      let previous = performance.now()
      let framing = true
      const frame = (now: number) => {
        longestFrame = Math.max(longestFrame, now - previous)
        previous = now
        if (framing) requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
      const started = performance.now()
      const writes: Promise<void>[] = []
      for (let index = 0; index < count; index++) writes.push(demo.append(1))
      await Promise.all(writes)
      await new Promise<void>((resolve) => {
        const check = () =>
          root.querySelector(`[data-testid="timeline-row"][data-seq="${last}"]`) !== null ? resolve() : requestAnimationFrame(check)
        check()
      })
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))
      framing = false
      observer.disconnect()
      return { longestTask: Math.max(0, ...tasks), longTasks: tasks.length, longestFrame, totalMs: performance.now() - started }
    },
    { count: burst, last: lastSeq },
  )
}

/** Gzip size of the devtools shell alone (what an app bundles for a closed panel), React and our packages excluded. */
async function shellGzipBytes(): Promise<number> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      lib: { entry: join(repo, 'devtools/src/production.ts'), formats: ['es'] },
      rollupOptions: { external: [/^react/, /^@threadlens\//, /^zustand/, /^@tanstack\//] },
    },
  })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((item) => item.output)
  const entry = chunks.find((chunk): chunk is Rolldown.OutputChunk => chunk.type === 'chunk' && chunk.isEntry)
  return entry === undefined ? Number.NaN : gzipSync(entry.code, { level: 9 }).length
}

/**
 * Importing a chat through the app's own import button: the demo's long session exported (about 800
 * entries, tool calls included), then 10,000 of its messages as one export; timed from choosing the
 * file to the imported chat open with its entry count shown.
 */
async function importTimes(
  context: BrowserContext,
): Promise<{ longSession: { entries: number; ms: number }; tenThousand: { entries: number; ms: number } }> {
  const page = await context.newPage()
  await page.goto(`${origin}/`)
  await page.getByRole('button', { name: 'Long session' }).click()
  await page.getByTestId('chat-notice').filter({ hasText: 'recall brings' }).waitFor({ timeout: 120_000 })
  const download = page.waitForEvent('download')
  await page
    .locator('[data-testid="thread-row"][data-active="true"]')
    .getByRole('button', { name: /^Export / })
    .click()
  const exported = await (await download).path()
  const text = readFileSync(exported, 'utf8').trim()
  const input = page.getByLabel('Import a chat (JSONL export or OpenAI messages JSON)')
  const rows = page.getByTestId('thread-row')
  const timed = async (path: string, entryCount: number): Promise<number> => {
    const before = await rows.count()
    const started = performance.now()
    await input.setInputFiles(path)
    // A new chat in the list, opened, showing the imported entry count.
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="thread-row"]').length > count, before, { timeout: 120_000 })
    await page
      .getByTestId('entry-count')
      .filter({ hasText: new RegExp(`^${entryCount}$`) })
      .waitFor({ timeout: 120_000 })
    return performance.now() - started
  }
  const [header, ...lines] = text.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
  const longSession = { entries: lines.length, ms: await timed(exported, lines.length) }
  // 10,000 entries: the export's messages again and again, with new seqs and ids.
  const messages = lines.filter((entry) => entry['kind'] === 'message')
  const many = Array.from({ length: 10_000 }, (_, seq) => ({
    ...(messages[seq % messages.length] as object),
    seq,
    id: `import-${seq}`,
    refs: {},
    meta: undefined,
  }))
  const path = join(repo, 'bench-results/import-10000.jsonl')
  mkdirSync(join(repo, 'bench-results'), { recursive: true })
  writeFileSync(
    path,
    [JSON.stringify({ ...header, entryCount: many.length, bytes: undefined }), ...many.map((entry) => JSON.stringify(entry))].join('\n'),
  )
  const tenThousand = { entries: many.length, ms: await timed(path, many.length) }
  await page.close()
  return { longSession, tenThousand }
}

async function main(): Promise<void> {
  console.log('[threadlens] building the demo…')
  await run('node_modules/.bin/vite', ['build', '--config', 'demo/vite.config.ts', '--logLevel', 'warn'])
  const shellBytes = await shellGzipBytes()
  const preview = await startPreview()
  const launched = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
  // tsx (esbuild) names functions through a `__name` helper that the page does not have.
  const browser = await launched.newContext({ viewport: { width: 1280, height: 900 } })
  await browser.addInitScript('globalThis.__name = (target) => target')
  await browser.addInitScript(frameEndScript)
  try {
    // Sizes: a fresh page on the sample thread, panel closed, then opened.
    const sizePage = await browser.newPage()
    const requested = new Set<string>()
    sizePage.on('request', (request) => requested.add(request.url()))
    await sizePage.goto(`${origin}/?view=lab`)
    await sizePage.getByTestId('devtools-toggle').waitFor()
    await sizePage.getByTestId('projection-loading').waitFor({ state: 'detached', timeout: 60_000 })
    const closed = downloadedAssets(requested)
    await sizePage.getByTestId('devtools-toggle').click()
    await sizePage.getByTestId('threadlens-devtools').getByTestId('meter-compact').waitFor({ timeout: 60_000 })
    const open = downloadedAssets(requested)
    await sizePage.close()
    const sum = (assets: Map<string, number>) => [...assets.values()].reduce((a, b) => a + b, 0)
    const panelOnly = [...open].filter(([path]) => !closed.has(path))

    // Speed: a 10,000-entry thread in IndexedDB, the panel on its timeline.
    const page = await browser.newPage()
    await page.goto(`${origin}/?entries=${entries}`)
    await page.addInitScript(() =>
      localStorage.setItem('threadlens-devtools', JSON.stringify({ state: { open: false, dock: 'bottom', size: 420, tab: 'timeline' }, version: 1 })),
    )
    await page.waitForFunction(() => (window as unknown as { __threadlensDemo?: unknown }).__threadlensDemo !== undefined, undefined, {
      timeout: 120_000,
    })
    await page.reload() // seeded; measure from a page that has the thread but has not opened the panel
    await page.waitForFunction(() => (window as unknown as { __threadlensDemo?: unknown }).__threadlensDemo !== undefined, undefined, {
      timeout: 120_000,
    })
    await page.getByTestId('projection-loading').waitFor({ state: 'detached', timeout: 60_000 })
    let lastSeq = entries - 1
    const coldOpen = await openTime(page, lastSeq)
    await closePanel(page)
    const warmOpens: number[] = []
    for (let round = 0; round < 5; round++) {
      warmOpens.push((await openTime(page, lastSeq)).firstRows)
      await closePanel(page)
    }
    await openTime(page, lastSeq)
    const appendTimes: { frame: number; late: number; inDom: number; toFrame: number; frameWork: number }[] = []
    for (let sample = 0; sample < appendSamples; sample++) appendTimes.push(await appendToPaint(page, ++lastSeq))
    const appends = appendTimes.map((time) => time.frame)
    const appendsLate = appendTimes.map((time) => time.late)
    lastSeq += burst
    const burstResult = await burstAppend(page, lastSeq)

    const imports = await importTimes(browser)

    const results = {
      imports: { ...imports, goalTenThousandMs: 3000 },
      thread: { entries },
      download: {
        shellGzipBytes: shellBytes,
        closedGzipBytes: sum(closed),
        openGzipBytes: sum(open),
        panelGzipBytes: sum(new Map(panelOnly)),
        panelChunks: Object.fromEntries(panelOnly),
        closedAssets: Object.fromEntries(closed),
      },
      openMs: {
        cold: coldOpen.firstRows,
        coldWholeThread: coldOpen.whole,
        coldLate: coldOpen.firstRowsLate,
        coldWholeThreadLate: coldOpen.wholeLate,
        warmMedian: median(warmOpens),
        warm: warmOpens,
        goalCold: goals.coldOpenMs,
      },
      appendToPaintMs: {
        median: median(appends),
        max: Math.max(...appends),
        samples: appends,
        lateMedian: median(appendsLate),
        lateSamples: appendsLate,
        goalMedian: goals.appendToPaintMedianMs,
        breakdownMedians: {
          inDom: median(appendTimes.map((time) => time.inDom)),
          toFrame: median(appendTimes.map((time) => time.toFrame)),
          frameWork: median(appendTimes.map((time) => time.frameWork)),
        },
      },
      burst: {
        entries: burst,
        longestTaskMs: burstResult.longestTask,
        longTasks: burstResult.longTasks,
        longestFrameMs: burstResult.longestFrame,
        totalMs: burstResult.totalMs,
        goalLongTasks: 0,
      },
    }
    mkdirSync(join(repo, 'bench-results'), { recursive: true })
    writeFileSync(join(repo, 'bench-results/devtools.json'), `${JSON.stringify(results, null, 2)}\n`)

    const rows: [string, string, string][] = [
      ['devtools shell in the app bundle (gzip)', kb(shellBytes), 'toggle, dock frame, UI state; React, zustand, core excluded'],
      ['app download, panel closed (gzip)', kb(results.download.closedGzipBytes), 'the demo app itself, its o200k chunk included'],
      [
        'app download, panel open (gzip)',
        kb(results.download.openGzipBytes),
        `+${kb(results.download.panelGzipBytes)}: ${panelOnly.map(([path]) => path.replace('/assets/', '')).join(', ')}`,
      ],
      [
        `panel open, ${entries} entries, cold (ms)`,
        coldOpen.firstRows.toFixed(0),
        `goal < ${goals.coldOpenMs}; click → meter and newest row painted: panel chunk, thread read, projection (late: ${coldOpen.firstRowsLate.toFixed(0)})`,
      ],
      [
        `  … whole thread in the panel, cold (ms)`,
        coldOpen.whole.toFixed(0),
        `click → timeline holds all ${entries} entries, every tab's data ready (late: ${coldOpen.wholeLate.toFixed(0)})`,
      ],
      [`panel open, ${entries} entries, warm median (ms)`, results.openMs.warmMedian.toFixed(0), 're-open, thread already live'],
      [
        'append → entry painted, median (ms)',
        results.appendToPaintMs.median.toFixed(1),
        `goal < ${goals.appendToPaintMedianMs}; max ${results.appendToPaintMs.max.toFixed(1)} (late: median ${results.appendToPaintMs.lateMedian.toFixed(1)})`,
      ],
      [
        '  … where it went, medians (ms)',
        '',
        `write + render until the row is in the DOM ${results.appendToPaintMs.breakdownMedians.inDom.toFixed(1)}, then to the frame ${results.appendToPaintMs.breakdownMedians.toFrame.toFixed(1)}, the frame ${results.appendToPaintMs.breakdownMedians.frameWork.toFixed(1)}`,
      ],
      [
        `longest task, ${burst}-append burst (ms)`,
        burstResult.longTasks === 0 ? '< 50 (no long task)' : burstResult.longestTask.toFixed(0),
        `goal: no long task (a task of 50 ms or more); ${burstResult.longTasks} long tasks; longest frame ${burstResult.longestFrame.toFixed(0)} ms`,
      ],
      [
        `import, ${imports.longSession.entries} entries (ms)`,
        imports.longSession.ms.toFixed(0),
        'the demo long session exported, imported through the import button until the chat shows its entry count',
      ],
      [
        `import, ${imports.tenThousand.entries.toLocaleString('en-US')} entries (ms)`,
        imports.tenThousand.ms.toFixed(0),
        'goal < 3000; its messages again and again, the same way',
      ],
    ]
    const width = Math.max(...rows.map((row) => row[0].length))
    console.log(`\n${'measure'.padEnd(width)}  ${'value'.padStart(20)}  note`)
    for (const [name, value, note] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(20)}  ${note}`)
    console.log('\nwrote bench-results/devtools.json')
  } finally {
    await launched.close()
    preview.kill()
  }
}

await main()
