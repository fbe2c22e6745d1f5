import { jsonObjectSchema } from '@threadlens/core/internal'
import { attachmentIdPattern } from '@threadlens/core/parts'
import { z } from 'zod/mini'
import { forkInfoSchema } from '../rows'
import { recordFieldsShape } from '../threads/thread-record'
import { maxAttachmentBytes } from '../attachments/attachment-store'
import { threadFormatName, threadFormatVersion } from './thread-file-format'

// The strict shapes an export's header and attachment lines must have to be imported.

export const attachmentLineSchema = z.strictObject({
  attachment: z.strictObject({
    id: z.string().check(z.regex(attachmentIdPattern, 'an attachment id is sha256-<64 hex digits>')),
    mediaType: z.string().check(z.regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'a media type such as image/png')),
    bytes: z.int().check(z.nonnegative(), z.lte(maxAttachmentBytes)),
    width: z.exactOptional(z.int().check(z.positive(), z.lte(100_000))),
    height: z.exactOptional(z.int().check(z.positive(), z.lte(100_000))),
    data: z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'data must be base64')),
  }),
})

/** The longest attachment line: the largest attachment in base64, plus its metadata. */
export const maxAttachmentLineBytes = Math.ceil(maxAttachmentBytes / 3) * 4 + 1024

export const headerSchema = z.strictObject({
  format: z.literal(threadFormatName, { error: `not a threadlens export (the first line must say "format": "${threadFormatName}")` }),
  version: z.literal(threadFormatVersion, { error: `unsupported format version (this code reads version ${threadFormatVersion})` }),
  thread: z.strictObject({
    id: z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,128}$/)),
    title: z.string().check(z.maxLength(10_000)),
    createdAt: z.int().check(z.nonnegative()),
    updatedAt: z.int().check(z.nonnegative()),
    parent: z.nullable(forkInfoSchema),
    metadata: jsonObjectSchema,
    tags: recordFieldsShape.tags,
    model: recordFieldsShape.model,
    policyName: recordFieldsShape.policyName,
  }),
  entryCount: z.int().check(z.nonnegative()),
  attachmentCount: z.exactOptional(z.int().check(z.positive())),
})
