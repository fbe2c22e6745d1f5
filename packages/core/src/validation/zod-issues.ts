import { z } from 'zod/mini'
import { en } from 'zod/locales'

/** One problem a schema found: where (`payload.parts.0.url`; `''` for the value itself) and what. */
export interface ValidationIssue {
  readonly path: string
  readonly message: string
}

// zod/mini loads no locale, so its own messages would all read "Invalid input". The English messages
// of classic zod are passed to each parse rather than installed with `z.config()`: a global setting
// would change the app's own zod messages, and the app's settings would change threadlens' errors.
const englishMessages = en().localeError

/** `schema.safeParse(value)` with zod's English messages ("Too small: expected string to have >=1 characters"). */
export function safeParse<TSchema extends z.core.$ZodType>(schema: TSchema, value: unknown): z.core.util.SafeParseResult<z.output<TSchema>> {
  return z.safeParse(schema, value, { error: englishMessages })
}

/** A zod issue path as one dotted string: `['messages', 3, 'content']` → `messages.3.content`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.')
}

/** Every issue of a failed parse, as `{ path, message }` (what the `Invalid…Error` classes carry). */
export function formatIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }))
}

/** The first issue of a failed parse; `fallback` is its message if zod reported none. */
export function firstIssue(error: z.core.$ZodError, fallback: string): ValidationIssue {
  const issue = error.issues[0]
  return issue === undefined ? { path: '', message: fallback } : { path: issuePath(issue.path), message: issue.message }
}

/**
 * Issues as one line: `path: message; path: message`. A path-less issue is its message alone, or
 * `rootName: message` when the value has a name of its own (a tool's `arguments`).
 */
export function issuesText(issues: readonly ValidationIssue[], rootName?: string): string {
  return issues
    .map((issue) => {
      const path = issue.path === '' ? (rootName ?? '') : issue.path
      return path === '' ? issue.message : `${path}: ${issue.message}`
    })
    .join('; ')
}
