import { InvalidToolNameError } from '../errors/threadlens-error'

/**
 * The one rule for tool names, everywhere: what both OpenAI (function names) and Anthropic (tool
 * names) accept. `defineTool` and every append check it; names stored before the rule existed are
 * mapped on the way out by `providerToolNames`.
 */
export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/

/** Whether providers accept `name` as a tool name (see `toolNamePattern`). */
export function isValidToolName(name: string): boolean {
  return toolNamePattern.test(name)
}

/** Throws `InvalidToolNameError` (naming the tool and the rule) unless providers accept `name`. */
export function assertToolName(name: string, field = 'name'): void {
  if (!isValidToolName(name)) throw new InvalidToolNameError(name, field)
}
