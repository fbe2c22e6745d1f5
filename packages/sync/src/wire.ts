import type { Entry, EntryInput, JsonObject } from '@threadlens/core'
import type { ThreadRecord } from '@threadlens/store'

/**
 * What sync writes to the streams, version 1. A thread's stream holds `entries` messages; the
 * store's index stream holds thread records, deletions and change notices. Every message names
 * the device that wrote it. A message of a newer version stops that stream's sync (the app must
 * be updated) rather than being skipped, so devices never disagree about what a stream holds.
 */
export const wireVersion = 1

/** An entry as it travels: what `append` takes, with the id and time it was first stored with. */
export type WireEntry = EntryInput & { readonly id: string; readonly createdAt: number }

export interface EntriesMessage {
  readonly v: 1
  readonly type: 'entries'
  readonly device: string
  readonly entries: readonly WireEntry[]
}

/** The synced part of a thread record (times, counts and revisions stay local). */
export interface WireRecord {
  readonly id: string
  readonly title: string
  readonly metadata: JsonObject
  readonly tags: readonly string[]
  readonly model: string | null
  readonly policyName: string | null
}

export type IndexMessage =
  | { readonly v: 1; readonly type: 'record'; readonly device: string; readonly record: WireRecord }
  | { readonly v: 1; readonly type: 'delete'; readonly device: string; readonly threadId: string }
  /** The thread's stream has new entries: devices that follow the index read it. */
  | { readonly v: 1; readonly type: 'changed'; readonly device: string; readonly threadId: string }
  /** The memory's stream has new operations. */
  | { readonly v: 1; readonly type: 'memory-changed'; readonly device: string; readonly memoryId: string }

export function wireEntry(entry: Entry): WireEntry {
  const { tokens: _tokens, unreadable: _unreadable, ...meta } = entry.meta ?? {}
  const base = { id: entry.id, kind: entry.kind, payload: entry.payload, refs: entry.refs, createdAt: entry.createdAt }
  return (Object.keys(meta).length === 0 ? base : { ...base, meta }) as WireEntry
}

export function wireRecord(record: ThreadRecord): WireRecord {
  return { id: record.id, title: record.title, metadata: record.metadata, tags: record.tags, model: record.model, policyName: record.policyName }
}

export function sameRecord(a: WireRecord | undefined, b: WireRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b)
}

/** A message sync could not take: why, and whether it is only newer than this code. */
export type Refusal =
  { readonly kind: 'refused'; readonly reason: string; readonly entryId?: string } | { readonly kind: 'newer'; readonly version: unknown }

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])
const idPattern = /^[A-Za-z0-9_.:-]{1,128}$/

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The first key able to pollute a prototype anywhere in `value` (bounded by `maxNodes`), if any. */
function forbiddenKeyIn(value: unknown, maxNodes = 1_000_000): string | undefined {
  const stack: unknown[] = [value]
  for (let visited = 0; stack.length > 0 && visited < maxNodes; visited++) {
    const item = stack.pop()
    if (typeof item !== 'object' || item === null) continue
    for (const key of Object.keys(item)) {
      if (forbiddenKeys.has(key)) return key
      stack.push((item as Record<string, unknown>)[key])
    }
  }
  return stack.length > 0 ? 'too many values' : undefined
}

/** The checks every stream message passes first: an object, this version, a device, no prototype keys. */
export function envelope(value: unknown): Refusal | Record<string, unknown> {
  if (!isObject(value)) return { kind: 'refused', reason: 'the message is not a JSON object' }
  if (value.v !== wireVersion) {
    return typeof value.v === 'number' && Number.isInteger(value.v) && value.v > wireVersion
      ? { kind: 'newer', version: value.v }
      : { kind: 'refused', reason: `unknown version ${JSON.stringify(value.v)?.slice(0, 40)}` }
  }
  if (typeof value.device !== 'string' || value.device.length === 0 || value.device.length > 128)
    return { kind: 'refused', reason: 'the message has no device' }
  const key = forbiddenKeyIn(value)
  if (key !== undefined) return { kind: 'refused', reason: `the key "${key}" is not allowed` }
  return value
}

/**
 * Checks a thread stream's message: the envelope and each entry's id and time. An entry's content
 * is checked by the store when it is placed, as any append is.
 */
export function readEntriesMessage(value: unknown): EntriesMessage | Refusal {
  const checked = envelope(value)
  if (isRefusal(checked)) return checked
  if (checked.type !== 'entries')
    return { kind: 'refused', reason: `a thread stream holds entries, not ${JSON.stringify(checked.type)?.slice(0, 40)}` }
  if (!Array.isArray(checked.entries) || checked.entries.length === 0) return { kind: 'refused', reason: 'the message has no entries' }
  for (const entry of checked.entries as unknown[]) {
    if (!isObject(entry) || typeof entry.id !== 'string' || !idPattern.test(entry.id)) return { kind: 'refused', reason: 'an entry has no valid id' }
    if (typeof entry.createdAt !== 'number' || !Number.isSafeInteger(entry.createdAt) || entry.createdAt < 0) {
      return { kind: 'refused', reason: 'the entry has no valid createdAt', entryId: entry.id }
    }
    if (typeof entry.kind !== 'string' || !isObject(entry.payload))
      return { kind: 'refused', reason: 'the entry has no kind or payload', entryId: entry.id }
  }
  return checked as unknown as EntriesMessage
}

/** Checks an index stream's message. */
export function readIndexMessage(value: unknown): IndexMessage | Refusal {
  const checked = envelope(value)
  if (isRefusal(checked)) return checked
  if (checked.type === 'delete' || checked.type === 'changed') {
    return typeof checked.threadId === 'string' && idPattern.test(checked.threadId)
      ? (checked as unknown as IndexMessage)
      : { kind: 'refused', reason: `the ${checked.type} notice has no valid thread id` }
  }
  if (checked.type === 'memory-changed') {
    return typeof checked.memoryId === 'string' && idPattern.test(checked.memoryId)
      ? (checked as unknown as IndexMessage)
      : { kind: 'refused', reason: 'the memory notice has no valid memory id' }
  }
  if (checked.type !== 'record') return { kind: 'refused', reason: `unknown message type ${JSON.stringify(checked.type)?.slice(0, 40)}` }
  const record = checked.record
  if (
    !isObject(record) ||
    typeof record.id !== 'string' ||
    !idPattern.test(record.id) ||
    typeof record.title !== 'string' ||
    record.title.length > 10_000 ||
    !isObject(record.metadata) ||
    !Array.isArray(record.tags) ||
    !record.tags.every((tag) => typeof tag === 'string' && tag.length > 0 && tag.length <= 256) ||
    record.tags.length > 100 ||
    !(record.model === null || typeof record.model === 'string') ||
    !(record.policyName === null || typeof record.policyName === 'string')
  ) {
    return { kind: 'refused', reason: 'the thread record is not valid' }
  }
  return checked as unknown as IndexMessage
}

export function isRefusal(value: object): value is Refusal {
  return 'kind' in value && (value.kind === 'refused' || value.kind === 'newer') && !('v' in value)
}
