import type { JsonObject } from '@threadlens/core'
import { useMemory } from '@threadlens/react'
import type { MemoryStore, ThreadRecord } from '@threadlens/store'
import { DEFAULT_TITLE, TITLES_MEMORY_ID } from '../chat-config'

// The thread store sets a title at `create` and offers no way to change it, so a rename is kept
// in a memory of its own (`world`: threadId → title): revisioned, live in every tab, erased with
// the rest of the data. Remove this once the store can rename a thread.

const noTitles: JsonObject = {}

/** Renamed titles by thread id, live. */
export function useRenamedTitles(): JsonObject {
  return useMemory(TITLES_MEMORY_ID, (snapshot) => snapshot.memory?.spaces.world.data ?? noTitles)
}

/** The title shown for a thread: its rename, else the title it was created with. */
export function titleOf(record: Pick<ThreadRecord, 'id' | 'title'> | undefined, renamed: JsonObject): string {
  if (record === undefined) return DEFAULT_TITLE
  const title = renamed[record.id]
  if (typeof title === 'string' && title.trim() !== '') return title
  return record.title.trim() === '' ? DEFAULT_TITLE : record.title
}

export async function renameThread(memory: MemoryStore, threadId: string, title: string): Promise<void> {
  await memory.world.put(TITLES_MEMORY_ID, threadId, title.trim().slice(0, 200))
}

export async function forgetTitle(memory: MemoryStore, threadId: string): Promise<void> {
  await memory.world.delete(TITLES_MEMORY_ID, threadId)
}
