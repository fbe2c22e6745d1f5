import { InvalidEntryError, type Entry, type EntryInput, type EntryMeta, type TokenCounter } from '@threadlens/core'
import { checkAppendRules, entryId, parseEntryInput, threadId as toThreadId, type EntryId, type ThreadId } from '@threadlens/core/internal'

/** An input validated and made ready outside the transaction: id, time and token counts fixed. */
export interface PreparedEntry {
  readonly input: EntryInput
  readonly id: EntryId
  readonly createdAt: number
  readonly meta: EntryMeta | undefined
}

export interface PrepareOptions {
  readonly counters: readonly TokenCounter[]
  readonly now: number
  readonly createId: () => string
  /** Drop any `meta.tokens` the input carries (imports: counts in a file are not trusted). Default: keep counts of other counters. */
  readonly dropGivenTokens?: boolean
  /** Turns a validation error about `inputs[offset]` into the error the caller throws (imports: `ImportValidationError`). */
  readonly describeError?: (error: unknown, offset: number) => unknown
}

function batchError(error: unknown, offset: number, total: number, describe: PrepareOptions['describeError']): unknown {
  if (describe !== undefined) return describe(error, offset)
  if (total > 1 && InvalidEntryError.isInstance(error)) {
    return new InvalidEntryError(error.field, `${error.rule} (input ${offset} of ${total}; nothing was appended)`, { cause: error })
  }
  return error
}

const placeholderThread = toThreadId('counting')

/**
 * Validates inputs (schema and per-kind ref rules) and computes their token counts with every
 * counter: the work that must not happen inside an IndexedDB transaction. Throws `InvalidEntryError`.
 */
export function prepareEntries(inputs: readonly unknown[], options: PrepareOptions): PreparedEntry[] {
  if (!Array.isArray(inputs)) throw new InvalidEntryError('', 'appendMany takes an array of entries')
  return inputs.map((raw, offset) => {
    let input: EntryInput
    try {
      input = parseEntryInput(raw)
    } catch (error) {
      throw batchError(error, offset, inputs.length, options.describeError)
    }
    const id = entryId(input.id ?? options.createId())
    const createdAt = input.createdAt ?? options.now
    const counted: Record<string, number> = {}
    if (options.counters.length > 0) {
      // Counted without `meta`, so a count given in the input is never taken for the real one.
      const bare = { id, threadId: placeholderThread, seq: 0, kind: input.kind, payload: input.payload, refs: input.refs ?? {}, createdAt } as Entry
      for (const counter of options.counters) counted[counter.id] = counter.countEntry(bare)
    }
    const givenTokens = options.dropGivenTokens === true ? undefined : input.meta?.tokens
    const tokens = { ...givenTokens, ...counted }
    const { tokens: _given, ...restMeta } = input.meta ?? {}
    const meta: EntryMeta | undefined =
      Object.keys(tokens).length > 0 ? { ...restMeta, tokens } : Object.keys(restMeta).length > 0 ? restMeta : undefined
    return { input, id, createdAt, meta }
  })
}

/** What the append rules need to know about entries already stored. */
export interface StoredToolIds {
  readonly calls: ReadonlySet<string>
  readonly results: ReadonlySet<string>
}

/** The tool call ids a batch mentions: the only ones whose stored state the rules ask about. */
export function toolCallIdsOf(prepared: readonly PreparedEntry[]): string[] {
  const ids = new Set<string>()
  for (const { input } of prepared) {
    const toolCallId = input.refs?.toolCallId
    if (toolCallId !== undefined && (input.kind === 'tool_call' || input.kind === 'tool_result')) ids.add(toolCallId)
  }
  return [...ids]
}

/**
 * Gives prepared entries their seqs from `startSeq`, checking the append rules against what is
 * stored and what came earlier in the batch (the same `checkAppendRules` as `Thread.appendMany`).
 * Pure and synchronous: it runs inside the transaction, between IndexedDB reads and writes.
 */
export function assignSeqs(
  threadId: ThreadId,
  prepared: readonly PreparedEntry[],
  startSeq: number,
  stored: StoredToolIds,
  describeError?: (error: unknown, offset: number) => unknown,
  /** Imports of stored threads keep tool names from before the name rule (see `AppendContext.storedToolNames`). */
  storedToolNames = false,
): Entry[] {
  const batchCalls = new Set<string>()
  const batchResults = new Set<string>()
  return prepared.map(({ input, id, createdAt, meta }, offset) => {
    const seq = startSeq + offset
    try {
      checkAppendRules(input, {
        seq,
        hasCall: (toolCallId) => stored.calls.has(toolCallId) || batchCalls.has(toolCallId),
        hasResult: (toolCallId) => stored.results.has(toolCallId) || batchResults.has(toolCallId),
        storedToolNames,
      })
    } catch (error) {
      throw batchError(error, offset, prepared.length, describeError)
    }
    const toolCallId = input.refs?.toolCallId
    if (toolCallId !== undefined && input.kind === 'tool_call') batchCalls.add(toolCallId)
    if (toolCallId !== undefined && input.kind === 'tool_result') batchResults.add(toolCallId)
    return buildEntry(threadId, seq, input, id, createdAt, meta)
  })
}

/** An entry with its keys in one fixed order, so exports are byte-stable. */
export function buildEntry(threadId: ThreadId, seq: number, input: EntryInput, id: EntryId, createdAt: number, meta: EntryMeta | undefined): Entry {
  return {
    id,
    threadId,
    seq,
    kind: input.kind,
    payload: input.payload,
    refs: { ...input.refs },
    createdAt,
    ...(meta === undefined ? {} : { meta }),
  } as Entry
}
