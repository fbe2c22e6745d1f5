import { entryLimits, InvalidEntryError, InvalidMessagesError, type Entry, type EntryInput } from '@threadlens/core'
import { fromOpenAIChat, type ImportChange } from '@threadlens/core/import'
import { checkAppendRules, parseEntry, problemIssue, read, readJsonData, type Reader } from '@threadlens/core/internal'
import { ImportValidationError } from '../errors'
import type { ImportLimits } from './import-limits'
import type { ThreadRecordFields } from '../threads/thread-record'
import { exceedsBytes, nestingExceeds, parseJsonSafely } from './safe-json'
import { referencedAttachmentIds, type AttachmentLine } from './thread-file-format'
import { attachmentLineReader, headerReader, maxAttachmentLineBytes } from './thread-file-schemas'

/** A validated import: what to write, before anything is written. */
export interface ParsedImport {
  /** The record fields of the new thread (title, metadata, tags, model, policy name). */
  readonly fields: ThreadRecordFields
  /** Inputs in order; they become seqs 0, 1, 2, … of the new thread. */
  readonly inputs: readonly EntryInput[]
  /** The JSONL line of `inputs[0]` (2: after the header); `undefined` for a messages array. */
  readonly firstLine: number | undefined
  /** Attachments the file carries (checked against the entries; hashes are checked by the store). */
  readonly attachments?: readonly (AttachmentLine['attachment'] & { readonly line: number })[]
  /** What `fromOpenAIChat` changed in a messages array (`[]` or absent for JSONL). */
  readonly changes?: readonly ImportChange[]
}

/** An `InvalidEntryError` about `inputs[offset]` as the import error it is, naming the line when there is one. */
export function importEntryError(error: unknown, parsed: ParsedImport, offset: number): unknown {
  if (!InvalidEntryError.isInstance(error)) return error
  const cause = InvalidEntryError.isInstance(error.cause) ? error.cause : error
  const line = parsed.firstLine === undefined ? undefined : parsed.firstLine + offset
  const where = parsed.firstLine === undefined ? ` (entry ${offset} made from the messages)` : ''
  return new ImportValidationError(line, cause.field, `${cause.rule}${where}`, { cause: error })
}

/** Line `line` read with `reader`, or `ImportValidationError` naming the line and the field. */
function readLine<T>(reader: Reader<T>, value: unknown, line: number): T {
  const result = read(reader, value)
  if (result.ok) return result.value
  const { path, message } = problemIssue(result.problem)
  throw new ImportValidationError(line, path, message)
}

// Repeated on purpose: packages/client/src/live/live-thread.test.ts has the same shape, keeping the meta whole (its entries are trusted).
/** Entries back to inputs: same id, kind, payload, refs, time; token counts dropped (a file's counts are not trusted). */
export function toInput(entry: Entry): EntryInput {
  const { tokens: _tokens, ...meta } = entry.meta ?? {}
  return {
    id: entry.id,
    kind: entry.kind,
    payload: entry.payload,
    refs: entry.refs,
    createdAt: entry.createdAt,
    ...(Object.keys(meta).length === 0 ? {} : { meta }),
  } as EntryInput
}

/**
 * Validates a threadlens JSONL export completely (size, JSON, strict schemas, no prototype keys,
 * seq gapless from 0, the thread's tool pairing rules) and throws `ImportValidationError` at the
 * first problem, with its line and field. Nothing here touches storage.
 */
export function parseThreadJsonl(text: string, limits: ImportLimits): ParsedImport {
  if (exceedsBytes(text, limits.maxBytes))
    throw new ImportValidationError(undefined, '', `the input is larger than the ${limits.maxBytes}-byte limit`)
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  if (lines.length === 0) throw new ImportValidationError(undefined, '', 'the input is empty')

  const lineText = (position: number, maxBytes = limits.maxLineBytes): string => {
    const raw = lines[position] as string
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (exceedsBytes(line, maxBytes)) throw new ImportValidationError(position + 1, '', `the line is longer than the ${maxBytes}-byte limit`)
    if (line.trim() === '') throw new ImportValidationError(position + 1, '', 'empty line')
    // Checked on the text, so JSON.parse never builds (nor its reviver recurses into) hostile nesting.
    if (nestingExceeds(line, entryLimits.maxDepth)) {
      throw new ImportValidationError(position + 1, '', `nested deeper than the ${entryLimits.maxDepth}-level limit (entryLimits.maxDepth)`)
    }
    return line
  }

  const header = readLine(headerReader, parseJsonSafely(lineText(0), 1), 1)
  const attachmentCount = header.attachmentCount ?? 0
  const entryLines = lines.length - 1 - attachmentCount
  if (entryLines > limits.maxEntries) throw new ImportValidationError(undefined, '', `more than ${limits.maxEntries} entries`)

  const inputs = parseEntryLines(entryLines, header.thread.id, lineText)
  if (header.entryCount !== inputs.length) {
    throw new ImportValidationError(1, 'entryCount', `the header says ${header.entryCount} entries but ${inputs.length} follow (a truncated file?)`)
  }
  const attachments = parseAttachmentLines(lines.length, entryLines, (position) => lineText(position, maxAttachmentLineBytes))
  checkCarried(inputs, attachments)
  const { thread } = header
  const fields: ThreadRecordFields = {
    title: thread.title,
    metadata: thread.metadata,
    tags: thread.tags ?? [],
    model: thread.model ?? null,
    policyName: thread.policyName ?? null,
  }
  return attachments.length === 0 ? { fields, inputs, firstLine: 2 } : { fields, inputs, firstLine: 2, attachments }
}

/** The entry lines (lines 2 to `entryLines` + 1) as inputs, checked as the store checks appends, seqs gapless from 0. */
function parseEntryLines(entryLines: number, threadId: string, lineText: (position: number) => string): EntryInput[] {
  const calls = new Set<string>()
  const results = new Set<string>()
  const inputs: EntryInput[] = []
  for (let position = 1; position <= entryLines; position++) {
    const line = position + 1
    let entry: Entry
    try {
      // The same rules as every append (plain JSON, depth, size), for the stored form of an entry.
      entry = parseEntry(parseJsonSafely(lineText(position), line))
    } catch (error) {
      if (InvalidEntryError.isInstance(error)) throw new ImportValidationError(line, error.field, error.rule, { cause: error })
      throw error
    }
    const seq = position - 1
    if (entry.seq !== seq) throw new ImportValidationError(line, 'seq', `expected seq ${seq} (seqs run 0, 1, 2, … with no gaps), got ${entry.seq}`)
    if (entry.threadId !== threadId) {
      throw new ImportValidationError(line, 'threadId', `the entry belongs to thread "${entry.threadId}", not "${threadId}" of the header`)
    }
    const input = toInput(entry)
    const toolCallId = entry.refs.toolCallId
    if ((entry.kind === 'tool_call' || entry.kind === 'tool_result') && toolCallId === undefined) {
      throw new ImportValidationError(line, 'refs.toolCallId', `a ${entry.kind} needs refs.toolCallId`)
    }
    try {
      checkAppendRules(input, { seq, hasCall: (id) => calls.has(id), hasResult: (id) => results.has(id), storedToolNames: true })
    } catch (error) {
      if (InvalidEntryError.isInstance(error)) throw new ImportValidationError(line, error.field, error.message, { cause: error })
      throw error
    }
    if (toolCallId !== undefined && entry.kind === 'tool_call') calls.add(toolCallId)
    if (toolCallId !== undefined && entry.kind === 'tool_result') results.add(toolCallId)
    inputs.push(input)
  }
  return inputs
}

/** Refuses entries that use an attachment the file does not carry. */
function checkCarried(inputs: readonly EntryInput[], attachments: NonNullable<ParsedImport['attachments']>): void {
  const carried = new Set(attachments.map((attachment) => attachment.id))
  inputs.forEach((input, offset) => {
    for (const id of referencedAttachmentIds([input])) {
      if (!carried.has(id))
        throw new ImportValidationError(
          offset + 2,
          'payload.parts',
          `the entry uses attachment ${id}, which the file does not carry (an export without its attachment lines?)`,
        )
    }
  })
}

function parseAttachmentLines(
  lineCount: number,
  entryLines: number,
  lineText: (position: number) => string,
): NonNullable<ParsedImport['attachments']> {
  const attachments: {
    -readonly [K in keyof NonNullable<ParsedImport['attachments']>[number]]: NonNullable<ParsedImport['attachments']>[number][K]
  }[] = []
  const seen = new Set<string>()
  for (let position = Math.max(1, entryLines + 1); position < lineCount; position++) {
    const line = position + 1
    const { attachment } = readLine(attachmentLineReader, parseJsonSafely(lineText(position), line), line)
    if (seen.has(attachment.id)) throw new ImportValidationError(line, 'attachment.id', `attachment ${attachment.id} is given twice`)
    seen.add(attachment.id)
    attachments.push({ ...attachment, line })
  }
  return attachments
}

/** Validates an OpenAI-style messages array through core's `fromOpenAIChat`. */
export function parseOpenAIMessages(messages: unknown, limits: ImportLimits): ParsedImport {
  if (!Array.isArray(messages)) throw new ImportValidationError(undefined, '', 'expected a JSON array of messages')
  if (messages.length > limits.maxEntries) throw new ImportValidationError(undefined, '', `more than ${limits.maxEntries} messages`)
  // An array handed over in code may hold anything (getters, cycles, class instances): read it as
  // JSON data first, so the parser below only ever sees a clean copy.
  const data = readJsonData(messages, { maxDepth: entryLimits.maxDepth + openAIEnvelopeDepth, maxBytes: limits.maxBytes })
  if (!data.ok) throw new ImportValidationError(undefined, data.problem.path.join('.'), data.problem.rule)
  try {
    const { systemPrompt, entries, changes } = fromOpenAIChat(data.value)
    if (entries.length > limits.maxEntries) throw new ImportValidationError(undefined, '', `more than ${limits.maxEntries} entries`)
    return {
      fields: {
        title: '',
        metadata: systemPrompt === undefined ? { importedFrom: 'openai-chat' } : { importedFrom: 'openai-chat', systemPrompt },
        tags: [],
        model: null,
        policyName: null,
      },
      inputs: entries,
      firstLine: undefined,
      changes,
    }
  } catch (error) {
    if (InvalidMessagesError.isInstance(error)) {
      const field = error.index === undefined ? error.field : [String(error.index), error.field].filter((part) => part !== '').join('.')
      throw new ImportValidationError(undefined, field, error.message, { cause: error })
    }
    throw error
  }
}

/** Either format, told apart by the first non-space character (`[` is a messages array). */
export function parseImportText(rawText: string, limits: ImportLimits): ParsedImport {
  // A UTF-8 byte order mark is dropped, as Blob.text() drops it: a string and a Blob of the same file read alike.
  const text = rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText
  if (exceedsBytes(text, limits.maxBytes))
    throw new ImportValidationError(undefined, '', `the input is larger than the ${limits.maxBytes}-byte limit`)
  if (text.trimStart().startsWith('[')) {
    // A messages array is a few levels deeper than the entries it becomes.
    if (nestingExceeds(text, entryLimits.maxDepth + openAIEnvelopeDepth)) {
      throw new ImportValidationError(undefined, '', `nested deeper than the ${entryLimits.maxDepth}-level limit (entryLimits.maxDepth)`)
    }
    return parseOpenAIMessages(parseJsonSafely(text, undefined), limits)
  }
  return parseThreadJsonl(text, limits)
}

/** Levels of a messages array around a message's content parts: array, message, content, part. */
const openAIEnvelopeDepth = 4

/** Accepts a string, a Blob (size checked before it is read) or an already parsed messages array. */
export async function parseImportInput(input: string | Blob | readonly unknown[], limits: ImportLimits): Promise<ParsedImport> {
  if (typeof input === 'string') return parseImportText(input, limits)
  if (Array.isArray(input)) return parseOpenAIMessages(input, limits)
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    if (input.size > limits.maxBytes) throw new ImportValidationError(undefined, '', `the input is larger than the ${limits.maxBytes}-byte limit`)
    return parseImportText(await input.text(), limits)
  }
  throw new ImportValidationError(undefined, '', 'import takes JSONL text, a Blob, or an array of OpenAI-style messages')
}
