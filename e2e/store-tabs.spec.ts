import { expect, test } from '@playwright/test'
import type { Outcome, StoreHarness } from '../packages/store/src/testing/harness/harness-page'
import { schemaVersion } from '../packages/store/src/backends/indexeddb/schema'
import { harnessTabs } from './harness-tabs'

// @threadlens/store in real tabs: pages of one browser context share IndexedDB exactly as tabs of a
// site do. The harness page (packages/store/src/testing/harness) runs on its own Vite server and
// origin, so the storage faults injected through the Chrome DevTools Protocol touch nothing else.

test.describe.configure({ mode: 'serial' })

const tabs = harnessTabs<StoreHarness>('store', 'storeHarness')
const { call, openTab } = tabs

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`${outcome.error.name}: ${outcome.error.message}`)
  return outcome.value
}

const databaseName = (label: string) => `store-e2e-${label}-${Date.now()}`
const range = (count: number, from = 0) => Array.from({ length: count }, (_, position) => from + position)

test('two tabs × 1,000 concurrent appends → 2,000 entries, seq 0..1999, no gaps, no duplicates', async ({ context }) => {
  test.setTimeout(180_000)
  const name = databaseName('race')
  const [tabA, tabB] = [await openTab(context, name), await openTab(context, name)]
  const threadId = value(await call(tabA, (harness, title: string) => harness.create(title), 'race'))
  const [seqsA, seqsB] = await Promise.all([
    call(tabA, (harness, id: string) => harness.appendSequential(id, 1000, 'A'), threadId),
    call(tabB, (harness, id: string) => harness.appendSequential(id, 1000, 'B'), threadId),
  ])
  expect(new Set([...value(seqsA), ...value(seqsB)]).size).toBe(2000)
  expect(value(await call(tabB, (harness, id: string) => harness.seqs(id), threadId))).toEqual(range(2000))
  const contents = value(await call(tabA, (harness, id: string) => harness.contents(id), threadId)) as string[]
  for (const tab of ['A', 'B']) expect(contents.filter((content) => content.startsWith(`${tab} `))).toEqual(range(1000).map((n) => `${tab} ${n}`))
})

test("a subscriber in tab B sees tab A's committed appends, and never an aborted one", async ({ context }) => {
  const name = databaseName('subscribe')
  const [tabA, tabB] = [await openTab(context, name), await openTab(context, name)]
  const threadId = value(await call(tabA, (harness, title: string) => harness.create(title), 'live'))
  await call(tabB, (harness, id: string) => harness.subscribe(id), threadId)
  value(await call(tabA, (harness, id: string) => harness.appendSequential(id, 3, 'first'), threadId))
  value(await call(tabA, (harness, id: string) => harness.abortedAppend(id), threadId))
  value(await call(tabA, (harness, id: string) => harness.appendSequential(id, 2, 'then'), threadId))
  const heardContents = async () =>
    (await call(tabB, (harness) => harness.heard(), undefined)).flatMap((event) => ('contents' in event ? event.contents : []))
  await expect.poll(heardContents).toEqual(['first 0', 'first 1', 'first 2', 'then 0', 'then 1'])
  const heardSeqs = (await call(tabB, (harness) => harness.heard(), undefined)).flatMap((event) => ('seqs' in event ? event.seqs : []))
  expect(heardSeqs).toEqual(range(5))
})

test('quota exceeded in the middle of appendMany → StorageFullError, no entry of the batch, seq unchanged', async ({ context }) => {
  // Chromium reads the quota when it opens the origin's IndexedDB, so it is lowered before the first open.
  const page = await context.newPage()
  await page.goto(tabs.url)
  await tabs.ready(page)
  const cdp = await context.newCDPSession(page)
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(tabs.url).origin, quotaSize: 1024 * 1024 })
  await call(page, (harness, name: string) => harness.open(name), databaseName('quota'))
  const threadId = value(await call(page, (harness, title: string) => harness.create(title), 'quota'))
  value(await call(page, (harness, id: string) => harness.appendSequential(id, 10, 'before'), threadId))

  // About 5 MB of incompressible text against a 1 MB quota.
  const outcome = await call(page, (harness, id: string) => harness.appendMany(id, 5000, 1000, 'batch'), threadId)
  expect(outcome.ok).toBe(false)
  if (!outcome.ok) {
    expect(outcome.error).toMatchObject({ name: 'StorageFullError', code: 'quota' })
    expect(outcome.error.message).toMatch(/Storage is full.*nothing of it was saved/)
  }
  expect(value(await call(page, (harness, id: string) => harness.seqs(id), threadId))).toEqual(range(10))
  expect(value(await call(page, (harness, id: string) => harness.get(id), threadId))).toMatchObject({ lastSeq: 9, entryCount: 10 })
})

test('a reload in the middle of a 5,000-entry appendMany leaves none or all of it, and seq goes on', async ({ context }) => {
  test.setTimeout(180_000)
  const name = databaseName('reload')
  let page = await openTab(context, name)
  const threadId = value(await call(page, (harness, title: string) => harness.create(title), 'reload'))
  value(await call(page, (harness, id: string) => harness.appendSequential(id, 3, 'before'), threadId))
  const outcomes: string[] = []
  let count = 3
  for (let round = 0; round < 3; round++) {
    await call(page, (harness, id: string) => harness.appendManyInBackground(id, 5000, 'batch'), threadId)
    await page.waitForFunction(() => (window as unknown as { storeHarness: { phase: string } }).storeHarness.phase !== 'idle')
    await page.reload()
    await tabs.load(page, name)
    const seqs = value(await call(page, (harness, id: string) => harness.seqs(id), threadId))
    expect([count, count + 5000]).toContain(seqs.length)
    expect(seqs).toEqual(range(seqs.length))
    outcomes.push(seqs.length === count ? 'none' : 'all')
    count = seqs.length
    expect(
      value(
        await call(page, (harness, target: { id: string; label: string }) => harness.appendSequential(target.id, 1, target.label), {
          id: threadId,
          label: `after ${round}`,
        }),
      ),
    ).toEqual([count])
    count++
  }
  test.info().annotations.push({ type: 'reload outcomes', description: outcomes.join(', ') })
  console.log(`[threadlens] reload during appendMany, 3 rounds: ${outcomes.join(', ')} of the batch survived`)
  page = await openTab(context, name)
  expect(value(await call(page, (harness, id: string) => harness.get(id), threadId))).toMatchObject({ entryCount: count })
})

test('site data cleared while the app is open → StorageResetError, never a silent empty thread', async ({ context }) => {
  const name = databaseName('cleared')
  const page = await openTab(context, name)
  const threadId = value(await call(page, (harness, title: string) => harness.create(title), 'cleared'))
  value(await call(page, (harness, id: string) => harness.appendSequential(id, 5, 'kept'), threadId))
  const cdp = await context.newCDPSession(page)
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(tabs.url).origin, storageTypes: 'all' })

  const append = await call(page, (harness, id: string) => harness.appendSequential(id, 1, 'after'), threadId)
  expect(append.ok).toBe(false)
  if (!append.ok) {
    expect(append.error).toMatchObject({ name: 'StorageResetError', reason: 'cleared', code: 'reset' })
    expect(append.error.message).toMatch(/Reload the page/)
  }
  const list = await call(page, (harness) => harness.list(), undefined)
  expect(list.ok ? 'listed' : list.error.name).toBe('StorageResetError')
  expect(await call(page, (harness) => harness.status(), undefined)).toMatchObject({ state: 'stopped', reason: 'cleared' })
})

test('site data cleared during a 5,000-entry appendMany → that call reports StorageResetError, not a bare abort', async ({ context }) => {
  const name = databaseName('cleared-mid-write')
  const page = await openTab(context, name)
  const threadId = value(await call(page, (harness, title: string) => harness.create(title), 'cleared mid-write'))
  await call(page, (harness, id: string) => harness.appendManyInBackground(id, 5000, 'batch'), threadId)
  await page.waitForFunction(() => (window as unknown as { storeHarness: { phase: string } }).storeHarness.phase === 'writing')
  const cdp = await context.newCDPSession(page)
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(tabs.url).origin, storageTypes: 'all' })
  await page.waitForFunction(() => (window as unknown as { storeHarness: { phase: string } }).storeHarness.phase !== 'writing')
  const { phase, backgroundError } = await page.evaluate(() => {
    const { storeHarness } = window as unknown as { storeHarness: Pick<StoreHarness, 'phase' | 'backgroundError'> }
    return { phase: storeHarness.phase, backgroundError: storeHarness.backgroundError }
  })
  test.info().annotations.push({ type: 'outcome', description: phase })
  // The batch either committed before the clear, or its call names the reset.
  if (phase === 'failed') expect(backgroundError).toMatchObject({ name: 'StorageResetError', reason: 'cleared', code: 'reset' })
  else expect(phase).toBe('done')
  const list = await call(page, (harness) => harness.list(), undefined)
  expect(list.ok ? 'listed' : list.error.name).toBe('StorageResetError')
})

test('a schema upgrade from another tab → the old tab stops writing with a clear error', async ({ context }) => {
  const name = databaseName('upgrade')
  const oldTab = await openTab(context, name)
  const threadId = value(await call(oldTab, (harness, title: string) => harness.create(title), 'upgrade'))
  value(await call(oldTab, (harness, id: string) => harness.appendSequential(id, 2, 'old'), threadId))
  const newTab = await context.newPage()
  await newTab.goto(tabs.url)
  await tabs.ready(newTab)
  // One version past the store's own, whatever that is now.
  const newer = schemaVersion + 1
  expect(
    value(
      await call(newTab, (harness, upgrade: { name: string; version: number }) => harness.upgrade(upgrade.name, upgrade.version), {
        name,
        version: newer,
      }),
    ),
  ).toBe(newer)

  const append = await call(oldTab, (harness, id: string) => harness.appendSequential(id, 1, 'stale'), threadId)
  expect(append.ok).toBe(false)
  if (!append.ok) {
    expect(append.error).toMatchObject({ name: 'SchemaUpgradeError', reason: 'upgraded-elsewhere', code: 'upgrade' })
    expect(append.error.message).toMatch(new RegExp(`Another tab upgraded the threadlens database to version ${newer}.*Reload this tab`))
  }
  expect(await call(oldTab, (harness) => harness.status(), undefined)).toMatchObject({
    state: 'stopped',
    reason: 'upgraded-elsewhere',
    otherVersion: newer,
  })
})

test('eraseAll with another tab open deletes everything; the other tab stops instead of writing', async ({ context }) => {
  const name = databaseName('erase')
  const [tabA, tabB] = [await openTab(context, name), await openTab(context, name)]
  const threadId = value(await call(tabA, (harness, title: string) => harness.create(title), 'erase'))
  value(await call(tabB, (harness, id: string) => harness.appendSequential(id, 3, 'b'), threadId))
  value(await call(tabB, (harness) => harness.memoryPut('k', 'v'), undefined))
  // Resolves only if tab B let go of its connection: the delete is not blocked.
  value(await call(tabA, (harness) => harness.eraseAll(), undefined))
  expect(value(await call(tabA, (harness) => harness.list(), undefined))).toEqual([])
  const append = await call(tabB, (harness, id: string) => harness.appendSequential(id, 1, 'late'), threadId)
  expect(append.ok ? 'written' : append.error).toMatchObject({ name: 'StorageResetError', reason: 'erased-elsewhere' })
  // The erasing tab starts over on a fresh database.
  const fresh = value(await call(tabA, (harness, title: string) => harness.create(title), 'fresh'))
  expect(value(await call(tabA, (harness, id: string) => harness.appendSequential(id, 1, 'new'), fresh))).toEqual([0])
})
