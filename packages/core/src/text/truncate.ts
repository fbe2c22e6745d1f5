import { utf8Length } from '../utils/utf8-length'

export interface TruncateOptions {
  /** Keep at most this many lines. Default: no line limit. */
  readonly maxLines?: number
  /** Keep at most this many UTF-8 bytes of content (the marker is extra). Default: no byte limit. */
  readonly maxBytes?: number
}

export interface TruncateResult {
  /** The kept content, with a visible marker where something was cut. */
  readonly content: string
  readonly truncated: boolean
  /** Which limit cut it: `lines` when the line limit alone would have, else `bytes`. */
  readonly truncatedBy: 'lines' | 'bytes' | undefined
  readonly totalLines: number
  readonly totalBytes: number
}

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : undefined

/** Graphemes of a text; code points where `Intl.Segmenter` is missing (never splits a surrogate pair). */
function graphemes(text: string): string[] {
  if (segmenter === undefined) return Array.from(text)
  return Array.from(segmenter.segment(text), (segment) => segment.segment)
}

/** The longest prefix (`fromEnd`: suffix) of whole graphemes within `maxBytes` UTF-8 bytes. */
function keepBytes(text: string, maxBytes: number, fromEnd = false): string {
  if (utf8Length(text) <= maxBytes) return text
  const parts = graphemes(text)
  if (fromEnd) parts.reverse()
  let used = 0
  let count = 0
  for (const grapheme of parts) {
    used += utf8Length(grapheme)
    if (used > maxBytes) break
    count++
  }
  const kept = parts.slice(0, count)
  return (fromEnd ? kept.reverse() : kept).join('')
}

function splitLines(text: string): string[] {
  return text.split('\n')
}

function marker(cutLines: number, cutBytes: number): string {
  return `[… ${cutLines} line${cutLines === 1 ? '' : 's'} (${cutBytes} bytes) truncated …]`
}

interface Measured {
  readonly lines: string[]
  readonly totalLines: number
  readonly totalBytes: number
}

function measure(content: string): Measured {
  const lines = splitLines(content)
  return { lines, totalLines: lines.length, totalBytes: utf8Length(content) }
}

function untouched(content: string, measured: Measured): TruncateResult {
  return { content, truncated: false, truncatedBy: undefined, totalLines: measured.totalLines, totalBytes: measured.totalBytes }
}

function fits(measured: Measured, options: TruncateOptions): boolean {
  return (
    (options.maxLines === undefined || measured.totalLines <= options.maxLines) &&
    (options.maxBytes === undefined || measured.totalBytes <= options.maxBytes)
  )
}

/** Keeps the start of tool output (e.g. a file's beginning). UTF-8 and grapheme safe. */
export function truncateHead(content: string, options: TruncateOptions): TruncateResult {
  const measured = measure(content)
  if (fits(measured, options)) return untouched(content, measured)
  const byLines = options.maxLines !== undefined && measured.totalLines > options.maxLines
  let kept = byLines ? measured.lines.slice(0, options.maxLines).join('\n') : content
  const byBytes = options.maxBytes !== undefined && utf8Length(kept) > options.maxBytes
  if (byBytes) kept = keepBytes(kept, options.maxBytes as number)
  const cutBytes = measured.totalBytes - utf8Length(kept)
  const cutLines = measured.totalLines - splitLines(kept).length
  return {
    content: `${kept}\n${marker(Math.max(cutLines, 0), cutBytes)}`,
    truncated: true,
    truncatedBy: byLines ? 'lines' : 'bytes',
    totalLines: measured.totalLines,
    totalBytes: measured.totalBytes,
  }
}

// Repeated on purpose: the mirror of truncateHead above (it keeps the other end and puts the marker first).
/** Keeps the end of tool output (e.g. a log's last lines). UTF-8 and grapheme safe. */
export function truncateTail(content: string, options: TruncateOptions): TruncateResult {
  const measured = measure(content)
  if (fits(measured, options)) return untouched(content, measured)
  const byLines = options.maxLines !== undefined && measured.totalLines > options.maxLines
  let kept = byLines ? measured.lines.slice(measured.totalLines - (options.maxLines as number)).join('\n') : content
  if (options.maxBytes !== undefined && utf8Length(kept) > options.maxBytes) kept = keepBytes(kept, options.maxBytes, true)
  const cutBytes = measured.totalBytes - utf8Length(kept)
  const cutLines = measured.totalLines - splitLines(kept).length
  return {
    content: `${marker(Math.max(cutLines, 0), cutBytes)}\n${kept}`,
    truncated: true,
    truncatedBy: byLines ? 'lines' : 'bytes',
    totalLines: measured.totalLines,
    totalBytes: measured.totalBytes,
  }
}

/** Keeps the start and the end, cutting the middle: limits are shared evenly between head and tail. */
export function truncateHeadTail(content: string, options: TruncateOptions): TruncateResult {
  const measured = measure(content)
  if (fits(measured, options)) return untouched(content, measured)
  const byLines = options.maxLines !== undefined && measured.totalLines > options.maxLines
  let headLines = measured.lines
  let tailLines: string[] = []
  if (byLines) {
    const maxLines = options.maxLines as number
    const headCount = Math.ceil(maxLines / 2)
    headLines = measured.lines.slice(0, headCount)
    tailLines = measured.lines.slice(measured.totalLines - (maxLines - headCount))
  }
  let head = headLines.join('\n')
  let tail = tailLines.join('\n')
  if (options.maxBytes !== undefined && utf8Length(head) + utf8Length(tail) > options.maxBytes) {
    const half = Math.ceil(options.maxBytes / 2)
    // Not cut by lines, the content is one block (all in `head`): cut its middle.
    tail = keepBytes(byLines ? tail : head, options.maxBytes - half, true)
    head = keepBytes(head, half)
  }
  const keptBytes = utf8Length(head) + utf8Length(tail)
  const keptLines = (head === '' ? 0 : splitLines(head).length) + (tail === '' ? 0 : splitLines(tail).length)
  const cutLines = Math.max(measured.totalLines - keptLines, 0)
  return {
    content: `${head}\n${marker(cutLines, measured.totalBytes - keptBytes)}${tail === '' ? '' : `\n${tail}`}`,
    truncated: true,
    truncatedBy: byLines ? 'lines' : 'bytes',
    totalLines: measured.totalLines,
    totalBytes: measured.totalBytes,
  }
}
