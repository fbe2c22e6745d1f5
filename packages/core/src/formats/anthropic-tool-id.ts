import { fnv1aHex } from '../utils/hash'

/** What the Messages API accepts as a `tool_use` id. */
export const anthropicToolIdPattern = /^[a-zA-Z0-9_-]+$/

/**
 * A tool call id the Messages API accepts. Ids that already match `anthropicToolIdPattern` pass
 * through; any other character becomes `_` and a hash of the original id is appended, so two ids
 * that differ only in replaced characters stay distinct. Pure: a call and its result map alike.
 */
export function anthropicToolId(id: string): string {
  if (anthropicToolIdPattern.test(id)) return id
  let sanitized = ''
  for (const character of id) sanitized += /[a-zA-Z0-9_-]/.test(character) ? character : '_'
  return `${sanitized}_${fnv1aHex(id)}`
}
