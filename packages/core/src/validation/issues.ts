import type { Problem } from './readers'

// The one shape of a validation problem in threadlens, and how it is written: core's readers and the
// zod schemas of the other packages (see zod-issues.ts) both report `{ path, message }`.

/** One problem a schema found: where (`payload.parts.0.url`; `''` for the value itself) and what. */
export interface ValidationIssue {
  readonly path: string
  readonly message: string
}

/** An issue path as one dotted string: `['messages', 3, 'content']` → `messages.3.content`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.')
}

/** A reader's first problem as an issue. */
export function problemIssue(problem: Problem): ValidationIssue {
  return { path: issuePath(problem.path), message: problem.rule }
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
