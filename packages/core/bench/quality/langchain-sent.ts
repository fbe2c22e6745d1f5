import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages'
import type { Thread } from '../../src/index'
import { REPLY_PRIMING_TOKENS } from '../../src/internal/index'
import { createMessageCounter, langchainPairing, toLangChainMessages, trim, trimOptions } from '../langchain-trim'
import { countO200k } from '../o200k'
import { countOrphans } from '../orphans'
import type { Sent } from './sent'

// LangChain's trimMessages (strategy 'last', no partial messages) over the same thread, with the
// token counter the other LangChain benches use (threadlens's accounting, each message counted once).

export interface LangChainTrimmer {
  sent(question: string, questionId: string, budget: number): Promise<Sent>
}

export function langChainTrimmer(thread: Thread): LangChainTrimmer {
  const messages = toLangChainMessages(thread.entries, '').slice(1) // no system prompt in this bench
  const { tokenCounter } = createMessageCounter(countO200k)
  const seqById = new Map<string, number>()
  const seqByToolCallId = new Map<string, number>()
  for (const entry of thread.entries) {
    seqById.set(entry.id, entry.seq)
    if (entry.kind === 'tool_call' && entry.refs.toolCallId !== undefined) seqByToolCallId.set(entry.refs.toolCallId, entry.seq)
  }
  // trimMessages's cost grows with the list it gets, and 'last' only ever keeps a tail: hand it a
  // tail of at least twice the budget, which yields the same output as the whole thread.
  const suffixTokens: number[] = []
  let running = 0
  for (let position = messages.length - 1; position >= 0; position--) {
    running += tokenCounter([messages[position] as BaseMessage]) - REPLY_PRIMING_TOKENS
    suffixTokens[position] = running
  }
  const tailFrom = (budget: number): number => {
    let start = messages.length
    while (start > 0 && (suffixTokens[start] ?? 0) <= 2 * budget) start--
    return start
  }
  return {
    async sent(question, questionId, budget) {
      const candidates = [...messages.slice(tailFrom(budget)), new HumanMessage({ content: question, id: questionId })]
      const started = performance.now()
      // No system prompt here: the session headers are system messages, and none of them is a prompt to keep.
      const output = await trim(candidates, { ...trimOptions(budget, tokenCounter), includeSystem: false })
      const ms = performance.now() - started
      const verbatim = new Set<number>()
      const text: string[] = []
      for (const message of output) {
        if (message.id === questionId) continue
        const seq = seqById.get(message.id as string)
        if (seq !== undefined) verbatim.add(seq)
        text.push(typeof message.content === 'string' ? message.content : JSON.stringify(message.content))
        if (AIMessage.isInstance(message)) {
          for (const call of message.tool_calls ?? []) {
            const callSeq = seqByToolCallId.get(call.id as string)
            if (callSeq !== undefined) verbatim.add(callSeq)
            text.push(`${call.name} ${JSON.stringify(call.args)}`)
          }
        }
      }
      return {
        verbatim,
        summary: '',
        text: text.join('\n'),
        tokens: tokenCounter(output),
        invalid: countOrphans(output.map(langchainPairing)) > 0,
        ms,
      }
    },
  }
}
