import { type JsonValue, type ThreadSource, type TokenCounter, type ToolSchema } from '@threadlens/core'
import { assertToolName } from '@threadlens/core/parts'
import { z } from 'zod/mini'

// zod is the language apps describe tool parameters in: `parameters` is the app's own schema, and its
// JSON Schema is what the model sees (the recall tool's parameters are written the same way).
// threadlens's own checks (options, stored rows, what a server or a provider sends) use core's readers.

export interface ToolContext {
  /** Aborted when the request is aborted: stop work and return or throw. */
  readonly signal: AbortSignal
  readonly toolCallId: string
  readonly threadId: string
  /**
   * The session's thread as the tool runs (read-only): its entries in seq order, this call's
   * `tool_call` among them, and their index. What a tool that searches the conversation reads.
   */
  readonly thread: ThreadSource
  /** The session's token counter for the request's policy (its `counter` option, or `policy.tokenizer`'s). */
  readonly counter: TokenCounter
}

export interface Tool<TArguments = unknown> {
  readonly name: string
  readonly description: string
  /** Validates the model's arguments before `execute` runs: any zod 4 schema (`zod` or `zod/mini`). */
  readonly parameters: z.core.$ZodType<TArguments>
  /** Safe to run again after a crash: `resume()` re-runs it instead of recording it as interrupted. */
  readonly idempotent: boolean
  execute(args: TArguments, context: ToolContext): Promise<JsonValue> | JsonValue
  /** The schema sent to the model (JSON Schema from `parameters`). */
  readonly schema: ToolSchema
}

export interface DefineToolOptions<TArguments> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64. */
  readonly name: string
  readonly description: string
  /** The arguments' schema: any zod 4 schema, from `zod` or `zod/mini` (`z.describe()` texts reach the model). */
  readonly parameters: z.core.$ZodType<TArguments>
  /** Default `false`: after a crash the call is recorded as interrupted rather than run twice. */
  readonly idempotent?: boolean
  execute(args: TArguments, context: ToolContext): Promise<JsonValue> | JsonValue
}

/**
 * A tool the session can run: arguments validated with zod, output any JSON value. Throws
 * `InvalidToolNameError` when the name breaks `toolNamePattern` (`^[a-zA-Z0-9_-]{1,64}$`).
 */
export function defineTool<TArguments>(options: DefineToolOptions<TArguments>): Tool<TArguments> {
  assertToolName(options.name)
  const { $schema: _schema, ...parameters } = z.toJSONSchema(options.parameters) as Record<string, unknown>
  return {
    name: options.name,
    description: options.description,
    parameters: options.parameters,
    idempotent: options.idempotent ?? false,
    execute: options.execute,
    schema: { name: options.name, description: options.description, parameters },
  }
}
