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

// FNV-1a over UTF-16 code units: tiny, stable across runtimes, and collisions need the same sanitized prefix too.
function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}
