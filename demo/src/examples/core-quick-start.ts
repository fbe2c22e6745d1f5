import { createThread, createTokenCounter, definePolicy, project, toOpenAIChat } from '@threadlens/core'
import { debugView } from '@threadlens/core/views'

const thread = createThread({ id: 'trip' })
thread.append({ kind: 'message', payload: { role: 'user', content: 'Plan a weekend in Oslo.' } })
thread.append({ kind: 'tool_call', payload: { name: 'weather', arguments: { city: 'Oslo' } },
                refs: { callId: 'call-1', toolCallId: 'w1' } })
thread.append({ kind: 'tool_result', payload: { name: 'weather', result: { celsius: 4, sky: 'rain' } },
                refs: { callId: 'call-1', toolCallId: 'w1' } })
thread.append({ kind: 'message', payload: { role: 'assistant', content: 'Pack a raincoat: 4°C and rain.' } })

const counter = await createTokenCounter('o200k_base') // exact counts; the encoding loads on first use
const policy = definePolicy({ maxInputTokens: 8000, reserveOutputTokens: 2000, systemPrompt: 'Be brief.' })
const result = project({ thread, policy, counter, pending: [{ role: 'user', content: 'And museums?' }] })

console.log(result.meta.tokens.total, 'of', result.meta.budget.input, 'tokens') // never over, unless meta.overflow
console.log(result.meta.dropped) // what was left out: seq ranges, each with its reason
console.log(debugView(result)) // the whole projection as text
const request = { model: 'gpt-4o-mini', messages: toOpenAIChat(result) } // or toAnthropicMessages(result)
console.log(JSON.stringify(request))
