import { custom, int, jsonObject, nullable, object, oneOf, optional, string, type Reader } from '@threadlens/core/internal'
import { attachmentIdPattern } from '@threadlens/core/parts'
import { forkInfoReader, threadIdReader } from '../rows'
import { recordFieldReaders, titleReader } from '../threads/thread-record'
import { maxAttachmentBytes } from '../attachments/attachment-store'
import { threadFormatName, threadFormatVersion, type AttachmentLine, type ThreadFileHeader } from './thread-file-format'

// The strict shapes an export's header and attachment lines must have to be imported.

export const attachmentLineReader: Reader<AttachmentLine> = object<AttachmentLine>({
  attachment: object({
    id: string({ pattern: attachmentIdPattern, patternRule: 'an attachment id is sha256-<64 hex digits>' }),
    mediaType: string({ pattern: /^[a-z]+\/[a-z0-9.+-]+$/i, patternRule: 'a media type such as image/png' }),
    bytes: int({ min: 0, max: maxAttachmentBytes }),
    width: optional(int({ above: 0, max: 100_000 })),
    height: optional(int({ above: 0, max: 100_000 })),
    data: string({ pattern: /^[A-Za-z0-9+/]*={0,2}$/, patternRule: 'data must be base64' }),
  }),
})

/** The longest attachment line: the largest attachment in base64, plus its metadata. */
export const maxAttachmentLineBytes = Math.ceil(maxAttachmentBytes / 3) * 4 + 1024

export const headerReader: Reader<ThreadFileHeader> = object<ThreadFileHeader>({
  format: oneOf([threadFormatName], `not a threadlens export (the first line must say "format": "${threadFormatName}")`),
  version: custom<typeof threadFormatVersion>(
    (value) => value === threadFormatVersion,
    `unsupported format version (this code reads version ${threadFormatVersion})`,
  ),
  thread: object({
    id: threadIdReader,
    title: titleReader,
    createdAt: int({ min: 0 }),
    updatedAt: int({ min: 0 }),
    parent: nullable(forkInfoReader),
    metadata: jsonObject,
    tags: recordFieldReaders.tags,
    model: recordFieldReaders.model,
    policyName: recordFieldReaders.policyName,
  }),
  entryCount: int({ min: 0 }),
  attachmentCount: optional(int({ above: 0 })),
})
