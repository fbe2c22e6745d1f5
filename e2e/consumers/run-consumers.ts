// The consumer test (`npm test`, after .ci/packages.sh): installs the packed tarballs with plain npm
// into fresh apps under the OS temp folder — no workspace links, every other dependency from the
// npm registry — and checks that a stranger's apps build, run and type-check:
//   1. Vite + React 18 and 2. Vite + React 19: persist a thread, project it, show the devtools
//      (built with `vite build`, driven in Chromium, reloaded to prove the thread persisted);
//   3. Next.js (app router): the server render imports the packages without touching indexedDB or
//      window, then the page hydrates and persists in Chromium;
//   4. plain Node ESM over @threadlens/core; 5. TypeScript with moduleResolution bundler and node16
//      (with docs/sync.md's example over @threadlens/sync);
//   6. a `useChat` app over a server route (React 19): @threadlens/ai-sdk's adopted server chat,
//      built with Vite, and a node:http server running the README's route (examples/server-route.ts)
//      with the AI SDK's mock model, driven in Chromium (server-chat.ts): send, a tool call,
//      regenerate, reload, two tabs, stop mid-answer, resume after a reload, the Calls tab's usage
//      and timings.
// Usage: tsx e2e/consumers/run-consumers.ts <folder with the .tgz files>. Each step prints its time;
// a summary goes to .test-reports/consumers.json for the closing line of `npm test`.
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../chromium.ts'
import { assert, PAGE_TIMEOUT_MS, watchErrors } from './page-checks.ts'
import { checkServerChat } from './server-chat.ts'

const appsFolder = fileURLToPath(new URL('./apps/', import.meta.url))
const serverRouteExample = fileURLToPath(new URL('../../packages/ai-sdk/examples/server-route.ts', import.meta.url))
const adoptedServerChatExample = fileURLToPath(new URL('../../packages/ai-sdk/examples/adopted-server-chat.tsx', import.meta.url))
const syncExample = fileURLToPath(new URL('../../packages/sync/examples/start-sync.ts', import.meta.url))
const reportFile = fileURLToPath(new URL('../../.test-reports/consumers.json', import.meta.url))
/** Generous: a cold npm cache downloads Next.js; a warm one installs in well under a minute. */
const INSTALL_TIMEOUT_MS = 300_000
/** Next.js compiles the tokenizer ranks for server and client: minutes on a busy 2-core machine. */
const BUILD_TIMEOUT_MS = 420_000

interface StepResult {
  readonly name: string
  readonly ok: boolean
  readonly seconds: number
}

const results: StepResult[] = []
const startedAt = performance.now()

async function step(name: string, run: () => Promise<void>): Promise<boolean> {
  const started = performance.now()
  let ok = true
  try {
    await run()
  } catch (error) {
    ok = false
    console.error(`  ✗ ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const seconds = (performance.now() - started) / 1000
  results.push({ name, ok, seconds })
  console.log(`${ok ? '✓' : '✗'} ${name} (${seconds.toFixed(1)} s)`)
  return ok
}

/** Runs a command to completion; its output is kept in a log and shown only when it fails. */
function run(command: string, args: readonly string[], cwd: string, timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs / 1000} s\n${output.slice(-3000)}`))
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0) resolvePromise(output)
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code} in ${cwd}\n${output.slice(-4000)}`))
    })
  })
}

interface Server {
  readonly url: string
  stop(): void
}

async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolvePromise(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Starts a server (its own process group, stopped by its id) and waits until it answers. */
async function serve(command: string, args: (port: number) => string[], cwd: string): Promise<Server> {
  const port = await freePort()
  const child = spawn(command, args(port), {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  // Once: the harness stops every server again on its way out, and a server that SIGTERM ended has
  // no exit code (its group is gone, and a second kill would throw ESRCH).
  let stopped = false
  const stop = () => {
    if (stopped || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
    stopped = true
    process.kill(-child.pid, 'SIGTERM')
  }
  const url = `http://127.0.0.1:${port}/`
  const deadline = Date.now() + PAGE_TIMEOUT_MS
  for (;;) {
    try {
      const response = await fetch(url)
      if (response.ok) return { url, stop }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      stop()
      throw new Error(`${command} did not serve ${url}\n${output.slice(-3000)}`)
    }
    await new Promise((wait) => setTimeout(wait, 250))
  }
}

/**
 * On a machine shared by several people, `THREADLENS_CHROMIUM_LOCK=<file>` holds that flock(1) lock
 * only while Chromium and the servers run, not through the installs and builds before them.
 */
async function chromiumLock(): Promise<() => void> {
  const lockFile = process.env['THREADLENS_CHROMIUM_LOCK']
  if (lockFile === undefined) return () => {}
  const holder = spawn('flock', [lockFile, 'sh', '-c', 'echo locked; exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] })
  await new Promise<void>((resolvePromise, reject) => {
    holder.stdout.once('data', () => resolvePromise())
    holder.once('exit', (code) => reject(new Error(`flock ${lockFile} exited with ${code}`)))
  })
  return () => holder.stdin.end()
}

async function tarballs(packDir: string): Promise<Record<string, string>> {
  const files = (await readdir(packDir)).filter((file) => file.endsWith('.tgz'))
  const byName: Record<string, string> = {}
  for (const file of files) {
    const match = /^threadlens-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)
    if (match !== null) byName[`@threadlens/${match[1]}`] = `file:${resolve(packDir, file)}`
  }
  for (const name of ['core', 'store', 'agent', 'client', 'react', 'ai-sdk', 'sync', 'devtools'])
    assert(byName[`@threadlens/${name}`], `no tarball for @threadlens/${name} in ${packDir}`)
  return byName
}

/** The tarballs stand in for the registry: overrides make every `^0.1.0` among them resolve to them. */
function consumerPackage(
  name: string,
  packages: Record<string, string>,
  dependencies: Record<string, string>,
  devDependencies: Record<string, string>,
) {
  return {
    name,
    private: true,
    type: 'module',
    dependencies: { ...packages, ...dependencies },
    devDependencies,
    overrides: Object.fromEntries(Object.keys(packages).map((packageName) => [packageName, `$${packageName}`])),
  }
}

async function npmInstall(folder: string): Promise<void> {
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], folder, INSTALL_TIMEOUT_MS)
}

/** First load shows the system prompt + one stored message; the reload shows one more, read back from IndexedDB. */
async function checkPersistingApp(browser: Browser, url: string, databaseName: string, expectReact?: string): Promise<void> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.goto(url)
    if (expectReact !== undefined) {
      const version = await page.getByTestId('react-version').textContent({ timeout: PAGE_TIMEOUT_MS })
      assert(version?.startsWith(`React ${expectReact}.`), `expected React ${expectReact}, the page says ${version}`)
    }
    await page.getByTestId('projected').filter({ hasText: '2 projected messages' }).waitFor({ timeout: PAGE_TIMEOUT_MS })
    // The token meter, imported from the devtools' root export, renders in this production build (in its own shadow root).
    await page.locator('[data-testid="token-meter"][data-status="ready"]').waitFor({ timeout: PAGE_TIMEOUT_MS })
    const meterTotal = Number(await page.getByTestId('token-meter').getAttribute('data-total'))
    assert(
      meterTotal > 0 && (await page.getByTestId('token-meter').getByRole('meter').count()) === 1,
      `the token meter shows ${meterTotal} tokens and no meter role`,
    )
    // The devtools render into a shadow root (Playwright's locators pierce it) and show the stored message.
    const devtools = page.getByRole('dialog', { name: 'threadlens devtools' })
    await devtools.waitFor({ timeout: PAGE_TIMEOUT_MS })
    await devtools.getByText('hello from visit 1').first().waitFor({ timeout: PAGE_TIMEOUT_MS })
    await page.reload()
    await page.getByTestId('projected').filter({ hasText: '3 projected messages' }).waitFor({ timeout: PAGE_TIMEOUT_MS })
    const names = await page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name ?? ''))
    assert(
      names.some((name) => name.includes(databaseName)),
      `IndexedDB has no database named like ${databaseName}: ${names.join(', ')}`,
    )
    assert(errors.length === 0, `the page reported errors:\n${errors.join('\n')}`)
  } finally {
    await context.close()
  }
}

/** The built app's entry chunk must not carry the tokenizer's ranks: they load on first use. */
async function checkTokenizerIsLazy(distFolder: string): Promise<void> {
  const html = await readFile(join(distFolder, 'index.html'), 'utf8')
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1]
  assert(entry !== undefined, 'no entry script in the built index.html')
  const entrySize = (await stat(join(distFolder, entry))).size
  const assets = await readdir(join(distFolder, 'assets'))
  const sizes = await Promise.all(assets.map(async (file) => ({ file, size: (await stat(join(distFolder, 'assets', file))).size })))
  const ranks = sizes.filter(({ size }) => size > 1_000_000)
  assert(
    ranks.length > 0 && !ranks.some(({ file }) => `assets/${file}` === entry),
    `expected the tokenizer ranks in a lazy chunk of their own, got ${JSON.stringify(sizes)}`,
  )
  assert(entrySize < 1_000_000, `the entry chunk ${entry} is ${entrySize} bytes: the tokenizer was bundled eagerly`)
}

async function main(): Promise<void> {
  const packDir = resolve(process.argv[2] ?? '')
  assert(process.argv[2] !== undefined, 'usage: tsx e2e/consumers/run-consumers.ts <folder with the .tgz files>')
  const packages = await tarballs(packDir)
  const work = await mkdtemp(join(tmpdir(), 'threadlens-consumers-'))
  console.log(`consumer apps in ${work}`)
  const react19 = join(work, 'react-19')
  const react18 = join(work, 'react-18')
  let browser: Browser | undefined
  const servers: Server[] = []
  let releaseLock = () => {}
  try {
    const written = await step(
      'write a React 19 folder (Vite app, Next.js app, Node script, TypeScript, server chat) and a React 18 Vite app',
      async () => {
        await mkdir(react19, { recursive: true })
        await mkdir(react18, { recursive: true })
        for (const app of ['vite-app', 'next-app', 'node-script', 'typescript', 'server-chat'])
          await cp(join(appsFolder, app), join(react19, app), { recursive: true })
        // The AI SDK server route of @threadlens/ai-sdk's README, type-checked as an app's own file and
        // run by the server chat's server, beside the README's adopted server chat as its page.
        await cp(serverRouteExample, join(react19, 'typescript', 'server-route.ts'))
        // docs/sync.md's example, type-checked against the packed @threadlens/sync.
        await cp(syncExample, join(react19, 'typescript', 'start-sync.ts'))
        await cp(serverRouteExample, join(react19, 'server-chat', 'server', 'server-route.ts'))
        await cp(adoptedServerChatExample, join(react19, 'server-chat', 'src', 'adopted-server-chat.tsx'))
        await cp(join(appsFolder, 'vite-app'), join(react18, 'vite-app'), { recursive: true })
        const withoutAiSdk = Object.fromEntries(Object.entries(packages).filter(([name]) => name !== '@threadlens/ai-sdk'))
        const viteTools = { vite: '^8.0.0', '@vitejs/plugin-react': '^6.0.0' }
        await writeFile(
          join(react19, 'package.json'),
          JSON.stringify(
            consumerPackage(
              'threadlens-consumer-react-19',
              packages,
              { react: '^19.0.0', 'react-dom': '^19.0.0', next: '^16.0.0', ai: '^7.0.0', '@ai-sdk/react': '^4.0.0', zod: '^4.0.0' },
              {
                ...viteTools,
                typescript: '^7.0.0',
                'typescript-5': 'npm:typescript@~5.9.0',
                '@types/react': '^19.0.0',
                '@types/react-dom': '^19.0.0',
                // The AI SDK's own declarations need these once skipLibCheck is off (any `ai` app's setup).
                '@types/node': '^20.0.0',
                '@types/json-schema': '^7.0.0',
                // The providers' SDKs: the formats' output must assign to their request types.
                openai: '^6.0.0',
                '@anthropic-ai/sdk': '^1.0.0',
              },
            ),
            null,
            2,
          ),
        )
        await writeFile(
          join(react18, 'package.json'),
          JSON.stringify(
            consumerPackage('threadlens-consumer-react-18', withoutAiSdk, { react: '^18.3.0', 'react-dom': '^18.3.0' }, viteTools),
            null,
            2,
          ),
        )
      },
    )
    if (!written) return

    const installed = await Promise.all([
      step('npm install (React 19: Vite, Next.js, the AI SDK, TypeScript 7 and 5.9, the eight tarballs)', () => npmInstall(react19)),
      step('npm install (React 18: Vite, seven tarballs)', () => npmInstall(react18)),
    ])
    if (!installed.every(Boolean)) return

    await step('4. Node ESM script over @threadlens/core (exact o200k counts)', async () => {
      const output = await run(process.execPath, ['node-script/core.mjs'], react19, PAGE_TIMEOUT_MS)
      console.log(`  ${output.trim()}`)
    })
    // Two lanes: the type checks (one thread each) run beside the app builds.
    // TypeScript 7 (native, fast) under both resolutions; 5.9 (what most apps still run) under node16.
    const typeChecks = (async () => {
      for (const [label, tsc, resolution] of [
        ['TypeScript 7', 'node_modules/typescript/bin/tsc', 'bundler'],
        ['TypeScript 7', 'node_modules/typescript/bin/tsc', 'node16'],
        ['TypeScript 5.9', 'node_modules/typescript-5/bin/tsc', 'node16'],
      ] as const) {
        await step(`5. ${label}, moduleResolution ${resolution}, skipLibCheck off`, async () => {
          await run(process.execPath, [tsc, '-p', `typescript/tsconfig.${resolution}.json`], react19, BUILD_TIMEOUT_MS)
        })
      }
    })()

    const viteBuilds: [string, string, string][] = []
    for (const [label, folder, major] of [
      ['React 18', react18, '18'],
      ['React 19', react19, '19'],
    ] as const) {
      const app = join(folder, 'vite-app')
      const built = await step(`${major === '18' ? 1 : 2}. vite build, ${label} (tokenizer left in a lazy chunk)`, async () => {
        await run(join(folder, 'node_modules/.bin/vite'), ['build'], app, BUILD_TIMEOUT_MS)
        await checkTokenizerIsLazy(join(app, 'dist'))
      })
      if (built) viteBuilds.push([label, app, major])
    }
    const serverChat = join(react19, 'server-chat')
    const serverChatBuilt = await step('6. vite build, server chat (the page, then its Node server: --ssr)', async () => {
      await run(join(react19, 'node_modules/.bin/vite'), ['build'], serverChat, BUILD_TIMEOUT_MS)
      await run(
        join(react19, 'node_modules/.bin/vite'),
        ['build', '--ssr', 'server/main.ts', '--outDir', 'dist-server'],
        serverChat,
        BUILD_TIMEOUT_MS,
      )
    })
    const nextApp = join(react19, 'next-app')
    const nextBuilt = await step('3. next build (app router; server render of the packages)', async () => {
      await run(join(react19, 'node_modules/.bin/next'), ['build'], nextApp, BUILD_TIMEOUT_MS, { NEXT_TELEMETRY_DISABLED: '1' })
    })
    await typeChecks

    releaseLock = await chromiumLock()
    browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs })
    for (const [label, app, major] of viteBuilds) {
      await step(`${major === '18' ? 1 : 2}. ${label} app in Chromium: persists, projects, shows the devtools, survives a reload`, async () => {
        const server = await serve(
          join(app, '../node_modules/.bin/vite'),
          (port) => ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
          app,
        )
        servers.push(server)
        try {
          await checkPersistingApp(browser as Browser, server.url, 'consumer-app', major)
        } finally {
          server.stop()
        }
      })
    }
    if (serverChatBuilt) {
      await step('6. server chat in Chromium: send, tool call, regenerate, reload, two tabs, stop, resume, the Calls tab', async () => {
        const server = await serve(process.execPath, (port) => ['dist-server/main.js', String(port)], serverChat)
        servers.push(server)
        try {
          await checkServerChat(browser as Browser, server.url)
        } finally {
          server.stop()
        }
      })
    }
    if (nextBuilt) {
      await step('3. Next.js in Chromium: server HTML without IndexedDB, then hydrates, persists, shows the devtools', async () => {
        const server = await serve(
          join(react19, 'node_modules/.bin/next'),
          (port) => ['start', '--hostname', '127.0.0.1', '--port', String(port)],
          nextApp,
        )
        servers.push(server)
        try {
          const response = await fetch(server.url)
          const html = await response.text()
          assert(response.status === 200, `the server render answered ${response.status}`)
          assert(
            html.includes('threadlens on Next.js') && html.includes('opening stores'),
            'the server HTML lacks the page heading or the chat placeholder',
          )
          await checkPersistingApp(browser as Browser, server.url, 'consumer-next')
        } finally {
          server.stop()
        }
      })
    }
  } finally {
    for (const server of servers) server.stop()
    await browser?.close()
    releaseLock()
    if (process.env['THREADLENS_KEEP_CONSUMERS'] === undefined) await rm(work, { recursive: true, force: true })
    else console.log(`kept ${work} (THREADLENS_KEEP_CONSUMERS is set)`)
  }
}

await main().catch((error: unknown) => {
  results.push({ name: 'consumer test harness', ok: false, seconds: 0 })
  console.error(error)
})
const passed = results.filter((result) => result.ok).length
const failed = results.length - passed
const wallSeconds = (performance.now() - startedAt) / 1000
console.log(`consumers: ${passed} steps passed, ${failed} failed in ${wallSeconds.toFixed(1)} s (report: .test-reports/${basename(reportFile)})`)
await mkdir(fileURLToPath(new URL('../../.test-reports/', import.meta.url)), { recursive: true })
await writeFile(reportFile, JSON.stringify({ passed, failed, steps: results }, null, 2))
if (failed > 0 || passed === 0) process.exitCode = 1
