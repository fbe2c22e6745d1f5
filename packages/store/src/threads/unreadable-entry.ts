import { UnreadableEntryError } from '../errors'
import { type Entry, type EntryRefs } from '@threadlens/core'
import { entryId, entryRefsReader, threadId as toThreadId } from '@threadlens/core/internal'
import { readIfValid } from '../parse-options'

const idPattern = /^[A-Za-z0-9_.:-]{1,128}$/

function field(raw: unknown, key: string): unknown {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>)[key] : undefined
}

function isSeq(value: unknown, below: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < below
}

/**
 * What the store shows where a stored entry cannot be read (a cycle or a class instance written
 * by an earlier version, a row edited outside threadlens): an entry at the same seq, with the same
 * id, refs and time when those are readable, whose text says what was lost. A tool call or result
 * keeps its kind and `toolCallId`, so the pair still projects together; a message keeps its role.
 * Anything else becomes an assistant message. `meta.unreadable` names the broken field and rule.
 * Only reads from stored bytes: nothing here can throw.
 */
export function unreadablePlaceholder(raw: unknown, rawThreadId: string, seq: number, problem: { field: string; rule: string }): Entry {
  const threadId = toThreadId(rawThreadId)
  const rawId = field(raw, 'id')
  const id = entryId(typeof rawId === 'string' && idPattern.test(rawId) ? rawId : `unreadable-${seq}`)
  const rawCreatedAt = field(raw, 'createdAt')
  const createdAt = typeof rawCreatedAt === 'number' && Number.isInteger(rawCreatedAt) && rawCreatedAt >= 0 ? rawCreatedAt : 0
  // `read` turns a throwing getter into a problem: unreadable refs leave the placeholder with none.
  const refs: EntryRefs = readIfValid(entryRefsReader, field(raw, 'refs')) ?? {}
  const where = problem.field === '' ? 'the entry' : problem.field
  const notice = `[threadlens] entry ${seq} could not be read from storage (${where}: ${problem.rule}); this placeholder stands in for it. Export the thread to keep everything that is readable.`
  const meta = { unreadable: { field: problem.field.slice(0, 10_000), rule: problem.rule.slice(0, 10_000) } }
  const common = { id, threadId, seq, refs, createdAt, meta }
  const kind = field(raw, 'kind')
  const payload = field(raw, 'payload')
  const rawName = field(payload, 'name')
  const name = typeof rawName === 'string' && rawName.length > 0 && rawName.length <= 256 ? rawName : 'unreadable'
  if (kind === 'tool_call' && refs.toolCallId !== undefined) return { ...common, kind, payload: { name, arguments: { unreadable: notice } } }
  if (kind === 'tool_result' && refs.toolCallId !== undefined) return { ...common, kind, payload: { name, error: notice } }
  const fromSeq = field(payload, 'fromSeq')
  const toSeq = field(payload, 'toSeq')
  if (kind === 'summary' && isSeq(fromSeq, seq) && isSeq(toSeq, seq) && fromSeq <= toSeq)
    return { ...common, kind, payload: { fromSeq, toSeq, content: notice } }
  const role = field(payload, 'role')
  const messageRole = kind === 'message' && (role === 'user' || role === 'assistant' || role === 'system') ? role : 'assistant'
  return { ...common, kind: 'message', payload: { role: messageRole, content: notice } }
}

/** Reports each placeholder among `entries` (each has `meta.unreadable`) to `report`. */
export function reportUnreadable(entries: readonly Entry[], operation: string, report: (error: UnreadableEntryError) => void): void {
  for (const entry of entries) {
    const unreadable = entry.meta?.unreadable
    if (unreadable !== undefined) report(new UnreadableEntryError(entry.threadId, entry.seq, unreadable.field, unreadable.rule, operation))
  }
}

/** The default report: a dev warning naming the fix. */
export function warnUnreadable(error: UnreadableEntryError): void {
  console.warn(`[threadlens] ${error.message}`)
}
