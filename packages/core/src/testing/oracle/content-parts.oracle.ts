// TEST ONLY: the zod schemas of content parts, the oracle of the hand-written readers (see entry-schema.oracle.ts).
import { z } from 'zod/mini'
import { attachmentIdPattern, type ContentPart, type MediaSource } from '../../entries/content-parts'

const dimension = z.int().check(z.positive(), z.lte(100_000))

export const mediaSourceSchema: z.ZodMiniType<MediaSource> = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('url'),
    url: z.string().check(z.refine((url) => /^(https?:|data:)/i.test(url), { message: 'a media URL starts with https:, http: or data:' })),
  }),
  z.strictObject({ type: z.literal('provider-file'), fileId: z.string().check(z.minLength(1), z.maxLength(256)) }),
  z.strictObject({
    type: z.literal('attachment'),
    id: z.string().check(z.regex(attachmentIdPattern, 'an attachment id is sha256-<64 hex digits>')),
    mediaType: z.string().check(z.minLength(3), z.maxLength(128)),
    bytes: z.int().check(z.nonnegative()),
  }),
])

export const contentPartSchema: z.ZodMiniType<ContentPart> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('image'),
    source: mediaSourceSchema,
    detail: z.exactOptional(z.enum(['auto', 'low', 'high'])),
    width: z.exactOptional(dimension),
    height: z.exactOptional(dimension),
  }),
  z.strictObject({
    type: z.literal('file'),
    source: mediaSourceSchema,
    filename: z.exactOptional(z.string().check(z.minLength(1), z.maxLength(1024))),
    pages: z.exactOptional(z.int().check(z.positive(), z.lte(100_000))),
  }),
])

