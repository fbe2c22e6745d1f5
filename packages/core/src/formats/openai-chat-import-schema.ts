import { z } from 'zod/mini'
import { safeParse } from '../validation/zod-issues'

// The shape a Chat Completions `messages` array must have to be imported; `fromOpenAIChat` parses with it.

const supportedRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const

const textPartSchema = z.object({ type: z.literal('text'), text: z.string() })
const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().check(z.minLength(1)), detail: z.optional(z.enum(['auto', 'low', 'high'])) }),
})
const filePartSchema = z.object({
  type: z.literal('file'),
  file: z.object({ file_data: z.optional(z.string()), file_id: z.optional(z.string()), filename: z.optional(z.string()) }),
})

// What each role's content parts may be; anything else is refused with the part's type named.
function partsSchema<TPart extends z.ZodMiniType>(part: TPart, allowed: string) {
  return z.array(
    z.pipe(z.unknown(), z.transform((value, context): z.output<TPart> => {
      const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined
      const parsed = safeParse(part, value)
      if (parsed.success) return parsed.data as z.output<TPart>
      const known = typeof type === 'string' && allowed.split(', ').includes(`"${type}"`)
      context.issues.push({
        code: 'custom',
        input: value,
        message: known
          ? (parsed.error.issues[0]?.message ?? 'invalid part')
          : type === 'input_audio'
            ? 'audio parts (input_audio) are not supported: transcribe the audio to text first'
            : `content part type ${JSON.stringify(type)} is not supported here; this role takes ${allowed} parts`,
      })
      return z.NEVER
    })),
  )
}

const textContentSchema = z.union([z.string(), partsSchema(textPartSchema, '"text"')], {
  error: 'content must be a string or an array of { type: "text", text } parts',
})
const userContentSchema = z.union([z.string(), partsSchema(z.union([textPartSchema, imagePartSchema, filePartSchema]), '"text", "image_url", "file"')], {
  error: 'content must be a string or an array of text, image_url and file parts',
})
const contentSchema = textContentSchema
const speakerSchema = z.optional(z.string())

const toolCallSchema = z.object({
  id: z.string().check(z.minLength(1)),
  type: z.literal('function', {
    error: (issue) => `tool call type ${JSON.stringify(issue.input)} is not supported; only "function" calls can be imported`,
  }),
  function: z.object({ name: z.string().check(z.minLength(1)), arguments: z.string() }),
})

// Other unknown fields (`annotations`, …) are ignored: exports from real apps carry them.
const openAIChatMessageSchema = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content: textContentSchema, name: speakerSchema }),
    z.object({ role: z.literal('user'), content: userContentSchema, name: speakerSchema }),
    z.object({
      role: z.literal('assistant'),
      content: z.nullish(textContentSchema),
      name: speakerSchema,
      refusal: z.nullish(z.string()),
      tool_calls: z.nullish(z.array(toolCallSchema)),
    }),
    z.object({ role: z.literal('tool'), tool_call_id: z.string().check(z.minLength(1)), content: contentSchema }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `role must be one of ${supportedRoles.map((role) => `"${role}"`).join(', ')}`
        : 'expected a message object',
  },
)

export const openAIChatMessagesSchema = z.array(openAIChatMessageSchema, { error: 'expected an array of messages' })

export type ParsedMessage = z.infer<typeof openAIChatMessageSchema>

export type ImportedPart = z.infer<typeof textPartSchema> | z.infer<typeof imagePartSchema> | z.infer<typeof filePartSchema>
