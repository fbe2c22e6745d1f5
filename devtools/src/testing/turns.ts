import type { EntryInput } from '@threadlens/core'

export interface TurnOptions {
  /** Filler words in the question and in the answer. */
  readonly words: number
  /** Whether the request calls the `lookup` tool (its call and result stand between question and answer). */
  readonly tool: boolean
  /** The question's filler word; a non-ASCII one makes bytes and characters differ. Default `word`. */
  readonly questionWord?: string
  /** Words of the tool result. Default: four times `words`. */
  readonly resultWords?: number
}

/** One request as an agent leaves it on the thread: the user's question, maybe a `lookup` call and its result, the answer. */
export function turnEntries(turn: number, { words, tool, questionWord = 'word', resultWords = words * 4 }: TurnOptions): EntryInput[] {
  const requestId = `r${turn}`
  const lookup: EntryInput[] = [
    { kind: 'tool_call', payload: { name: 'lookup', arguments: { turn } }, refs: { requestId, callId: `c${turn}`, toolCallId: `t${turn}` } },
    { kind: 'tool_result', payload: { name: 'lookup', result: 'row '.repeat(resultWords) }, refs: { requestId, toolCallId: `t${turn}` } },
  ]
  return [
    { kind: 'message', payload: { role: 'user', content: `question ${turn} ${`${questionWord} `.repeat(words)}` }, refs: { requestId } },
    ...(tool ? lookup : []),
    { kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${'word '.repeat(words)}` }, refs: { requestId } },
  ]
}
