import { hashString } from '../utils/hash'
import { memo } from '../utils/memo'
import type { Entry, ToolResultPayload } from './entry'
import { toolArgumentsText, toolResultText } from './entry-text'

/** Identifies a result by its call's tool and arguments and its own output (errors included). */
export function resultContentHash(callHash: number, payload: ToolResultPayload): number {
  return hashString(toolResultText(payload), callHash % 4294967296)
}

/**
 * Lookups the projector needs, kept up to date entry by entry so that a projection never scans
 * the whole thread. Built once per thread and extended on every append.
 */
export interface ThreadIndex {
  /** Seq of the newest `reset` op, or -1. */
  readonly resetSeq: number
  /** Seqs of summary entries, oldest first. */
  readonly summarySeqs: readonly number[]
  /** Seqs of user messages, oldest first (turn starts). */
  readonly userSeqs: readonly number[]
  /** Seqs currently pinned (by `meta.pinned` or by pin/unpin ops). */
  readonly pinnedSeqs: ReadonlySet<number>
  /** toolCallId -> seq of its `tool_call`. */
  readonly callSeqByToolCallId: ReadonlyMap<string, number>
  /** toolCallId -> seq of its `tool_result`. */
  readonly resultSeqByToolCallId: ReadonlyMap<string, number>
  /** callId -> seqs of the assistant text and tool calls of that model call, ascending. */
  readonly seqsByCallId: ReadonlyMap<string, readonly number[]>
  /** toolCallIds with a call and no result yet. */
  readonly unresolvedToolCallIds: ReadonlySet<string>
  /** Hash of (tool, arguments, output) -> seq of the newest result with it; equal hashes are confirmed before use. */
  readonly newestResultSeqByContentHash: ReadonlyMap<number, number>
  /** toolCallId -> hash of (tool, arguments). */
  readonly callHashByToolCallId: ReadonlyMap<string, number>
}

export interface MutableThreadIndex extends ThreadIndex {
  resetSeq: number
  readonly summarySeqs: number[]
  readonly userSeqs: number[]
  readonly pinnedSeqs: Set<number>
  readonly callSeqByToolCallId: Map<string, number>
  readonly resultSeqByToolCallId: Map<string, number>
  readonly seqsByCallId: Map<string, number[]>
  readonly unresolvedToolCallIds: Set<string>
  readonly newestResultSeqByContentHash: Map<number, number>
  readonly callHashByToolCallId: Map<string, number>
}

/** An index of `entries` (seq order; none by default), to extend entry by entry with `indexEntry`. */
export function createThreadIndex(entries: readonly Entry[] = []): MutableThreadIndex {
  const index: MutableThreadIndex = {
    resetSeq: -1,
    summarySeqs: [],
    userSeqs: [],
    pinnedSeqs: new Set(),
    callSeqByToolCallId: new Map(),
    resultSeqByToolCallId: new Map(),
    seqsByCallId: new Map(),
    unresolvedToolCallIds: new Set(),
    newestResultSeqByContentHash: new Map(),
    callHashByToolCallId: new Map(),
  }
  for (const entry of entries) indexEntry(index, entry)
  return index
}

/** Folds one entry (the next in seq order) into the index. */
export function indexEntry(index: MutableThreadIndex, entry: Entry): void {
  if (entry.meta?.pinned === true) index.pinnedSeqs.add(entry.seq)
  const callId = entry.refs.callId
  switch (entry.kind) {
    case 'message':
      if (entry.payload.role === 'user') index.userSeqs.push(entry.seq)
      if (callId !== undefined && entry.payload.role === 'assistant') pushSeq(index.seqsByCallId, callId, entry.seq)
      return
    case 'tool_call': {
      const toolCallId = entry.refs.toolCallId as string
      index.callSeqByToolCallId.set(toolCallId, entry.seq)
      index.callHashByToolCallId.set(toolCallId, hashString(toolArgumentsText(entry.payload), hashString(entry.payload.name)))
      if (!index.resultSeqByToolCallId.has(toolCallId)) index.unresolvedToolCallIds.add(toolCallId)
      if (callId !== undefined) pushSeq(index.seqsByCallId, callId, entry.seq)
      return
    }
    case 'tool_result': {
      const toolCallId = entry.refs.toolCallId as string
      index.resultSeqByToolCallId.set(toolCallId, entry.seq)
      index.unresolvedToolCallIds.delete(toolCallId)
      const callHash = index.callHashByToolCallId.get(toolCallId)
      if (callHash !== undefined) index.newestResultSeqByContentHash.set(resultContentHash(callHash, entry.payload), entry.seq)
      return
    }
    case 'summary':
      index.summarySeqs.push(entry.seq)
      return
    case 'context_op':
      if (entry.payload.op === 'reset') index.resetSeq = entry.seq
      else if (entry.payload.op === 'pin') index.pinnedSeqs.add(entry.payload.target as number)
      else if (entry.payload.op === 'unpin') index.pinnedSeqs.delete(entry.payload.target as number)
      return
  }
}

function pushSeq(map: Map<string, number[]>, key: string, seq: number): void {
  memo(map, key, () => []).push(seq)
}

const indexCache = new WeakMap<readonly Entry[], { length: number; index: MutableThreadIndex }>()

/**
 * The index of a plain entry array (seq order), memoised per array and extended when the array
 * only grew since the last call.
 */
export function indexOfEntries(entries: readonly Entry[]): ThreadIndex {
  const cached = indexCache.get(entries)
  if (cached !== undefined && cached.length <= entries.length) {
    for (let position = cached.length; position < entries.length; position++) indexEntry(cached.index, entries[position] as Entry)
    cached.length = entries.length
    return cached.index
  }
  const index = createThreadIndex(entries)
  indexCache.set(entries, { length: entries.length, index })
  return index
}
