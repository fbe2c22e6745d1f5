import type { Entry, EntryInput } from '@threadlens/core'
import type { ThreadRecord } from '../rows'

// What a thread export is and how one is written; thread-jsonl.ts reads it back.

/** The first line of every export names the format, so a reader can refuse what it does not know. */
export const threadFormatName = 'threadlens.thread'
export const threadFormatVersion = 1

export interface ThreadFileHeader {
  readonly format: typeof threadFormatName
  readonly version: typeof threadFormatVersion
  /** `tags`, `model` and `policyName` are written only when set. */
  readonly thread: Pick<ThreadRecord, 'id' | 'title' | 'createdAt' | 'updatedAt' | 'parent' | 'metadata'> &
    Partial<Pick<ThreadRecord, 'tags' | 'model' | 'policyName'>>
  readonly entryCount: number
  /** Attachment lines after the entries (images and files the entries use); written only when there are some. */
  readonly attachmentCount?: number
}

/**
 * An attachment line: one image's or file's bytes (base64) with its metadata. They follow the
 * entries, one per attachment the thread uses, so an export carries everything an import needs.
 */
export interface AttachmentLine {
  readonly attachment: {
    readonly id: string
    readonly mediaType: string
    readonly bytes: number
    readonly width?: number
    readonly height?: number
    readonly data: string
  }
}

// Repeated on purpose: packages/client/src/live/live-thread.test.ts has the same shape for an input (no threadId, no seq).
/** A stored entry with its keys in one fixed order (nested objects keep theirs). */
function canonical(entry: Entry): Entry {
  return {
    id: entry.id,
    threadId: entry.threadId,
    seq: entry.seq,
    kind: entry.kind,
    payload: entry.payload,
    refs: entry.refs,
    createdAt: entry.createdAt,
    ...(entry.meta === undefined ? {} : { meta: entry.meta }),
  } as Entry
}

/**
 * JSONL: the header, then one entry per line in seq order, then one attachment line per image or
 * file the thread uses (by id), each line ending in `\n`.
 */
export function serializeThread(record: ThreadRecord, entries: readonly Entry[], attachments: readonly AttachmentLine[] = []): string {
  const lines = [JSON.stringify(threadHeader(record, entries.length, attachments.length))]
  for (const entry of entries) lines.push(JSON.stringify(canonical(entry)))
  for (const attachment of [...attachments].sort((a, b) => (a.attachment.id < b.attachment.id ? -1 : 1))) lines.push(JSON.stringify(attachment))
  return `${lines.join('\n')}\n`
}

/** The ids of store-held attachments entries reference. */
export function referencedAttachmentIds(entries: readonly (Entry | EntryInput)[]): Set<string> {
  const ids = new Set<string>()
  for (const entry of entries) {
    if (entry.kind !== 'message') continue
    for (const part of entry.payload.parts ?? []) if (part.type !== 'text' && part.source.type === 'attachment') ids.add(part.source.id)
  }
  return ids
}

/** The first line of an export. */
export function threadHeader(record: ThreadRecord, entryCount: number, attachmentCount = 0): ThreadFileHeader {
  return {
    format: threadFormatName,
    version: threadFormatVersion,
    thread: {
      id: record.id,
      title: record.title,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      parent: record.parent,
      metadata: record.metadata,
      ...(record.tags.length === 0 ? {} : { tags: record.tags }),
      ...(record.model === null ? {} : { model: record.model }),
      ...(record.policyName === null ? {} : { policyName: record.policyName }),
    },
    entryCount,
    ...(attachmentCount === 0 ? {} : { attachmentCount }),
  }
}
