import type { ScriptAnswer, ScriptContext } from '@threadlens/agent/testing'
import { contextFacts } from './context-facts'
import { answerChat, answerFromResults, answerRecall } from './script-replies'
import { intentOf } from './script-intents'
import { attachmentMention } from './attachment-mention'

/** The error `/error` makes the offline model throw, as a real provider's failure would. */
export class ScriptedFailure extends Error {
  override readonly name = 'ScriptedFailure'
}

const toolPreface: Readonly<Record<string, string>> = {
  calculator: 'Let me calculate that.',
  convert_units: 'Converting.',
  save_note: 'I will note that.',
  read_document: 'Reading the document.',
}

/**
 * The offline model: a function of what the model is shown, nothing else. On a request's first
 * call it picks tools from the user's latest message; once this request's tool results are in the
 * context it answers from them. So a request takes at most two calls, whatever the policy drops.
 */
export function demoScript(context: ScriptContext): ScriptAnswer {
  const facts = contextFacts(context.projection)
  const available = new Set(context.tools.map((tool) => tool.name))
  if (facts.afterLatestUser.length > 0) return answerFromResults(facts)
  const intent = intentOf(facts.latestUser)
  if (intent.type === 'error') {
    return {
      error: new ScriptedFailure('The offline model failed on purpose (you typed /error). Your message is saved in the thread: send another.'),
    }
  }
  if (intent.type === 'tools') {
    const calls = intent.calls.filter((call) => available.has(call.name))
    if (calls.length > 0) return { text: calls.map((call) => toolPreface[call.name] ?? '').join(' '), toolCalls: calls }
  }
  const answer = intent.type === 'recall' ? answerRecall(facts) : answerChat(facts)
  // Images and files of the latest message are acknowledged before the answer.
  const mention = attachmentMention(context.projection)
  if (mention === undefined) return answer
  return `${mention}\n\n${answer}`
}
