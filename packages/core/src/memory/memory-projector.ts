import type { Entry } from '../entries/entry'
import { toolResultText } from '../entries/entry-text'
import type { ThreadSource } from '../entries/thread'
import type { Memory } from './memory'
import { mapPut, updateSpace, worldGet } from './memory-operations'

/**
 * Compiles what a thread says into memory: a pure function from (thread, memory) to the next
 * memory. Return the same memory object when nothing changes, so no write happens.
 */
export interface MemoryProjector {
  readonly name: string
  project(thread: ThreadSource, memory: Memory, now: number): Memory
}

function entriesOf(thread: ThreadSource): readonly Entry[] {
  return thread.entries
}

/** Keeps the newest summary (after the newest reset) in `world.summary`. */
export function summaryToWorld(key = 'summary'): MemoryProjector {
  return {
    name: `summary-to-world:${key}`,
    project(thread, memory, now) {
      const { index } = thread
      const seq = index.summarySeqs[index.summarySeqs.length - 1]
      if (seq === undefined || seq <= index.resetSeq) return memory
      const entries = entriesOf(thread)
      const entry = entries[seq - (entries[0]?.seq ?? 0)]
      if (entry?.kind !== 'summary' || worldGet(memory, key) === entry.payload.content) return memory
      return updateSpace(memory, 'world', (data: never) => mapPut(data, key, entry.payload.content), { now })
    },
  }
}

/** Keeps the newest successful result of one tool in `world[key]` (e.g. the last weather report). */
export function toolResultToWorld(toolName: string, key: string = toolName): MemoryProjector {
  return {
    name: `tool-result-to-world:${toolName}:${key}`,
    project(thread, memory, now) {
      const entries = entriesOf(thread)
      for (let position = entries.length - 1; position >= 0; position--) {
        const entry = entries[position] as Entry
        if (entry.seq <= thread.index.resetSeq) break
        if (entry.kind !== 'tool_result' || entry.payload.name !== toolName || entry.payload.error !== undefined) continue
        const text = toolResultText(entry.payload)
        if (worldGet(memory, key) === text) return memory
        return updateSpace(memory, 'world', (data: never) => mapPut(data, key, text), { now })
      }
      return memory
    },
  }
}

/** Runs projectors in order; the same memory object comes back when none changed anything. */
export function applyMemoryProjectors(thread: ThreadSource, memory: Memory, projectors: readonly MemoryProjector[], now: number): Memory {
  let current = memory
  for (const projector of projectors) current = projector.project(thread, current, now)
  return current
}
