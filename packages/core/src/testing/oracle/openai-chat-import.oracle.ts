import { z } from 'zod/mini'
import { InvalidMessagesError } from '../../errors/threadlens-error'
import { issuePath, safeParse } from '../../validation/zod-issues'

// TEST ONLY: the zod schema fromOpenAIChat parsed with before its hand-written readers (the oracle).
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
const refusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() })
const assistantContentSchema = z.union([z.string(), partsSchema(z.union([textPartSchema, refusalPartSchema]), '"text", "refusal"')], {
  error: 'content must be a string or an array of text and refusal parts',
})
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
      content: z.nullish(assistantContentSchema),
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

export function fromZodError(error: z.core.$ZodError): InvalidMessagesError {
  const issue = error.issues[0]
  const { path, message } = issue === undefined ? { path: [], message: 'invalid messages' } : innermost(issue)
  const [first, ...rest] = path
  // A path that does not start at an element means the input as a whole is wrong (e.g. not an array).
  if (typeof first !== 'number') return new InvalidMessagesError(undefined, '', message, { cause: error })
  return new InvalidMessagesError(first, issuePath(rest), message, { cause: error })
}

// When only one branch of a union got past the type check (content given as parts), its issue says more than the union's.
function innermost(issue: z.core.$ZodIssue): { path: readonly PropertyKey[]; message: string } {
  if (issue.code === 'invalid_union') {
    const deeper = issue.errors
      .map((branch) => branch[0])
      .filter((first) => first !== undefined && !(first.code === 'invalid_type' && first.path.length === 0))
    const [only] = deeper
    if (only !== undefined && deeper.length === 1) {
      const inner = innermost(only)
      return { path: [...issue.path, ...inner.path], message: inner.message }
    }
  }
  return { path: issue.path, message: issue.message }
}
