import { z } from 'zod/mini'
import { en } from 'zod/locales'
import { issuePath, type ValidationIssue } from './issues'

export type { ValidationIssue }
export { issuePath, issuesText } from './issues'

// zod/mini loads no locale, so its own messages would all read "Invalid input". The English messages
// of classic zod are passed to each parse rather than installed with `z.config()`: a global setting
// would change the app's own zod messages, and the app's settings would change threadlens' errors.
const englishMessages = en().localeError

/** `schema.safeParse(value)` with zod's English messages ("Too small: expected string to have >=1 characters"). */
export function safeParse<TSchema extends z.core.$ZodType>(schema: TSchema, value: unknown): z.core.util.SafeParseResult<z.output<TSchema>> {
  return z.safeParse(schema, value, { error: englishMessages })
}

/** Every issue of a failed parse, as `{ path, message }` (what the `Invalid…Error` classes carry). */
export function formatIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }))
}
