/// <reference lib="webworker" />
// A "tab" for real-browser tests: a Web Worker has its own IndexedDB connection, exactly like
// another tab of the app, and runs truly in parallel with the page.
import type { EntryInput } from '@threadlens/core'
import type { CallAttempt } from '@threadlens/core/calls'
import { createCallLog } from '../backends/indexeddb/create-call-log'
import { Dexie } from 'dexie'
import { schemaV5 } from '../backends/indexeddb/schema'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { createMemoryStore } from '../backends/indexeddb/create-memory-store'
import type { MemoryStore } from '../memory/memory-store'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import type { ThreadStore } from '../threads/thread-store'
import type { TabCommand, TabReply } from './tab-protocol'
import { abortedAppend } from './aborted-append'

let db: ThreadlensDB | undefined
let threads: ThreadStore | undefined
let memory: MemoryStore | undefined
const upgraded: Dexie[] = []

function stores(): { db: ThreadlensDB; threads: ThreadStore; memory: MemoryStore } {
  if (db === undefined || threads === undefined || memory === undefined) throw new Error('send "open" first')
  return { db, threads, memory }
}

async function run(command: TabCommand): Promise<unknown> {
  switch (command.type) {
    case 'open':
      db = new ThreadlensDB({ name: command.name })
      threads = createThreadStore(db)
      memory = createMemoryStore(db)
      await db.open()
      return db.status
    case 'append-sequential': {
      const seqs: number[] = []
      for (let position = 0; position < command.count; position++) {
        const entry = await stores().threads.append(command.threadId, {
          kind: 'message',
          payload: { role: 'user', content: `${command.label} ${position}` },
        })
        seqs.push(entry.seq)
      }
      return seqs
    }
    case 'recall-index':
      return (await stores().threads.recallIndex(command.threadId)).indexedThrough
    case 'record-attempt':
      await createCallLog(stores().db).recordAttempt(command.attempt as CallAttempt)
      return true
    case 'append-many':
      return (await stores().threads.appendMany(command.threadId, command.inputs as EntryInput[])).map((entry) => entry.seq)
    case 'aborted-append':
      return abortedAppend(stores().db, command.threadId)
    case 'thread-create':
      return stores().threads.create({ title: command.title })
    case 'thread-rename':
      return stores().threads.rename(command.threadId, command.title, command.expectedRev === undefined ? {} : { expectedRev: command.expectedRev })
    case 'memory-get':
      return stores().memory.get(command.memoryId)
    case 'memory-put':
      return stores().memory.world.put(
        command.memoryId,
        command.key,
        command.value,
        command.expectedRev === undefined ? {} : { expectedRev: command.expectedRev },
      )
    case 'memory-increment': {
      for (let time = 0; time < command.times; time++) {
        await stores().memory.update(command.memoryId, 'world', (data) => ({
          ...data,
          count: (typeof data['count'] === 'number' ? data['count'] : 0) + 1,
        }))
      }
      return 'done'
    }
    case 'upgrade': {
      // What a newer deploy of the app does when it opens the database in another tab.
      const newer = new Dexie(command.name)
      newer.version(command.version).stores({ ...schemaV5, threads: 'id, updatedAt, title' })
      await newer.open()
      upgraded.push(newer)
      return newer.verno
    }
  }
}

self.onmessage = async (event: MessageEvent<{ id: number; command: TabCommand }>) => {
  const { id, command } = event.data
  let reply: TabReply
  try {
    reply = { id, ok: true, result: await run(command) }
  } catch (error) {
    const fields = typeof error === 'object' && error !== null ? { ...(error as Record<string, unknown>) } : {}
    delete fields['cause']
    reply = { id, ok: false, error: { ...JSON.parse(JSON.stringify(fields)), name: (error as Error).name, message: (error as Error).message } }
  }
  self.postMessage(reply)
}
