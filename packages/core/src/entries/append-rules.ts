import { InvalidEntryError } from '../errors/threadlens-error'
import type { EntryInput } from './entry'
import { assertToolName } from './tool-name'

/** What the rules need to know about the thread an entry is appended to. */
export interface AppendContext {
  /** The seq the entry will get. */
  readonly seq: number
  /** Whether a `tool_call` with this id is already in the thread (or earlier in the same batch). */
  hasCall(toolCallId: string): boolean
  /** Whether a `tool_result` for this id is already in the thread (or earlier in the same batch). */
  hasResult(toolCallId: string): boolean
  /** Only part of the thread is known (a window): a result's call may be outside it. */
  readonly partial?: boolean
  /**
   * The entries were stored before (an import of an exported thread): tool names that break
   * `toolNamePattern` are kept as they were, and mapped on the way out. Default `false`.
   */
  readonly storedToolNames?: boolean
}

/**
 * The rules every append obeys beyond the schema, shared by the in-memory thread and the store:
 * tool call ids are unique, a result answers an earlier call exactly once, summaries and context
 * ops only refer to earlier entries, tool names match `toolNamePattern` (a result answering a call
 * already in the thread may carry that call's name, however old). Throws `InvalidEntryError`
 * (`InvalidToolNameError` for a name).
 */
export function checkAppendRules(input: EntryInput, context: AppendContext): void {
  const toolCallId = input.refs?.toolCallId
  if (context.storedToolNames !== true) {
    if (input.kind === 'tool_call') assertToolName(input.payload.name, 'payload.name')
    // A call stored before the rule must still be answerable under its own name.
    if (input.kind === 'tool_result' && !(toolCallId !== undefined && (context.hasCall(toolCallId) || context.partial === true)))
      assertToolName(input.payload.name, 'payload.name')
  }
  if (input.kind === 'tool_call' && toolCallId !== undefined && context.hasCall(toolCallId)) {
    throw new InvalidEntryError('refs.toolCallId', `tool call "${toolCallId}" already exists in this thread; tool call ids must be unique`)
  }
  if (input.kind === 'tool_result' && toolCallId !== undefined) {
    if (!context.hasCall(toolCallId) && context.partial !== true) {
      throw new InvalidEntryError('refs.toolCallId', `no tool call "${toolCallId}" precedes this result; append the tool_call first`)
    }
    if (context.hasResult(toolCallId)) {
      throw new InvalidEntryError('refs.toolCallId', `tool call "${toolCallId}" already has a result; a call is answered once`)
    }
  }
  if (input.kind === 'summary' && input.payload.toSeq >= context.seq) {
    throw new InvalidEntryError(
      'payload.toSeq',
      `a summary can only cover earlier entries (toSeq ${input.payload.toSeq} >= its own seq ${context.seq})`,
    )
  }
  if (input.kind === 'context_op' && input.payload.target !== undefined && input.payload.target >= context.seq) {
    throw new InvalidEntryError(
      'payload.target',
      `a context op can only target an earlier entry (target ${input.payload.target} >= its own seq ${context.seq})`,
    )
  }
}
