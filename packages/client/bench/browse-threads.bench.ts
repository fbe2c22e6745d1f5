// `npm run bench` step: what a ThreadlensClient holds after an app has browsed 1,000 threads (each
// opened, shown until loaded, then left), with its views let go (`gcTime`, here 0 so the figure is
// read without waiting five minutes) side by side with a client that keeps every view (`gcTime:
// Infinity`, what every client did before views were let go). Each thread holds 40 messages of
// about 400 characters, stored through Dexie in fake-indexeddb (Node has no IndexedDB), so each load
// is a copy the client alone holds, as in a browser. Heap after a forced collection, the store's
// own share measured before the client opens anything.
// Run with `node --expose-gc`: `.ci/bench.sh` does. Prints a table; fails on nothing.
import 'fake-indexeddb/auto'
import { createThreadlensClient } from '@threadlens/client'
import { openThreadlensStores } from '@threadlens/store'

const THREADS = Number(process.env['THREADLENS_BENCH_THREADS'] ?? 1_000)
const MESSAGES = 40
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined)
  throw new Error('run with node --expose-gc (e.g. node --expose-gc --import tsx packages/client/bench/browse-threads.bench.ts)')

const heapMb = async (): Promise<number> => {
  for (let round = 0; round < 3; round++) {
    collect()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return process.memoryUsage().heapUsed / 2 ** 20
}

async function browse(gcTime: number): Promise<{ readonly held: number; readonly clientMb: number }> {
  const stores = await openThreadlensStores({ name: `browse-threads-${gcTime}` })
  if (!stores.persistent) throw new Error('IndexedDB (fake-indexeddb) did not open', { cause: stores.unavailable })
  const ids = Array.from({ length: THREADS }, (_, index) => `thread-${index}`)
  for (const id of ids) {
    await stores.threads.create({ id })
    await stores.threads.appendMany(
      id,
      Array.from({ length: MESSAGES }, (_, turn) => ({
        kind: 'message' as const,
        payload: {
          role: turn % 2 === 0 ? ('user' as const) : ('assistant' as const),
          content: `${id} turn ${turn}: ${'lorem ipsum dolor sit amet '.repeat(15)}`,
        },
      })),
    )
  }
  const before = await heapMb()
  const client = createThreadlensClient({ threads: stores.threads, gcTime })
  const views = []
  for (const id of ids) {
    const view = client.thread(id)
    let stop = (): void => undefined
    await new Promise<void>((resolve) => {
      stop = view.subscribe((state) => state.status !== 'loading' && resolve())
    })
    stop()
    // Only the client keeps a view: the bench drops its own reference, as a closed screen does.
    views.push(new WeakRef(view))
  }
  const clientMb = (await heapMb()) - before
  const held = views.filter((view) => view.deref() !== undefined).length
  stores.db.close()
  return { held, clientMb }
}

console.log(
  `A ThreadlensClient after browsing ${THREADS.toLocaleString('en')} threads of ${MESSAGES} messages (Node ${process.version}, heap after gc)`,
)
console.log('| client | views still held | heap the client holds |')
console.log('|---|---:|---:|')
for (const [label, gcTime] of [
  ['keeps every view (gcTime: Infinity)', Infinity],
  ['lets go of views no one subscribes to (gcTime: 0; default 5 min)', 0],
] as const) {
  const { held, clientMb } = await browse(gcTime)
  console.log(`| ${label} | ${held.toLocaleString('en')} | ${clientMb.toFixed(1)} MB |`)
}
