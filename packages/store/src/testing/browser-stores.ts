// The page side of the real-Chromium store tests: fresh database names, "this tab"'s thread, and
// worker tabs open on the same database.
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import type { ThreadStore } from '../threads/thread-store'
import { openTab, type Tab } from './tab-protocol'

/** A database name no other browser test, or run, uses. */
export function browserDatabaseName(label: string): string {
  return `threadlens-browser-${label}-${crypto.randomUUID()}`
}

/** A new database opened in this page, its thread store, and one new thread in it. */
export async function threadInNewDatabase(
  label: string,
  title?: string,
): Promise<{ readonly name: string; readonly db: ThreadlensDB; readonly threads: ThreadStore; readonly id: string }> {
  const name = browserDatabaseName(label)
  const db = new ThreadlensDB({ name })
  const threads = createThreadStore(db)
  const { id } = await threads.create(title === undefined ? {} : { title })
  return { name, db, threads, id }
}

/** `count` worker tabs, each with the database `name` open. */
export async function openTabs(name: string, count: number): Promise<Tab[]> {
  const tabs = Array.from({ length: count }, () => openTab())
  await Promise.all(tabs.map((tab) => tab.send({ type: 'open', name })))
  return tabs
}
