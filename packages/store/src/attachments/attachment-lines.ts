import type { AttachmentRow } from '../rows'
import { ImportValidationError } from '../errors'
import type { AttachmentLine } from '../transfer/thread-file-format'
import type { ParsedImport } from '../transfer/thread-jsonl'
import { attachmentIdOf, base64ToBytes, bytesToBase64 } from './attachment-store'

/** Attachment rows as export lines (bytes in base64). */
export async function attachmentLines(rows: readonly AttachmentRow[]): Promise<AttachmentLine[]> {
  const lines: AttachmentLine[] = []
  for (const row of rows) {
    const data = bytesToBase64(new Uint8Array(await row.blob.arrayBuffer()))
    const { id, mediaType, bytes, width, height } = row
    lines.push({ attachment: { id, mediaType, bytes, ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }), data } })
  }
  return lines
}

/** An import's attachment lines as rows, each checked against its id (the SHA-256 of its bytes) and size. */
export async function importedAttachmentRows(parsed: ParsedImport, time: number): Promise<AttachmentRow[]> {
  const rows: AttachmentRow[] = []
  for (const { line, id, mediaType, bytes, width, height, data } of parsed.attachments ?? []) {
    let decoded: Uint8Array
    try {
      decoded = base64ToBytes(data)
    } catch (error) {
      throw new ImportValidationError(line, 'attachment.data', 'data must be base64', { cause: error })
    }
    if (decoded.length !== bytes) throw new ImportValidationError(line, 'attachment.bytes', `the data holds ${decoded.length} bytes, not ${bytes}`)
    const copy = new Uint8Array(decoded)
    if ((await attachmentIdOf(copy.buffer)) !== id)
      throw new ImportValidationError(line, 'attachment.id', `the data's SHA-256 is not ${id} (a damaged or edited file)`)
    rows.push({
      id,
      blob: new Blob([copy], { type: mediaType }),
      mediaType,
      bytes,
      ...(width === undefined ? {} : { width }),
      ...(height === undefined ? {} : { height }),
      createdAt: time,
    })
  }
  return rows
}
