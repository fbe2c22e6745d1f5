import { jsonSchema, tool } from 'ai'
import { scriptedChatModel } from '../src/testing/scripted-chat-model'

// Stands in for a real provider (`openai('gpt-4o')`, a local model server): the AI SDK's own mock
// model, so the examples and the demo run offline.
export const chatModel = scriptedChatModel({ chunkDelayInMs: 15 })

export const chatTools = {
  weather: tool({
    description: 'Current weather for a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => ({ city, celsius: 4 + (city.length % 9), sky: city.length % 2 === 0 ? 'clear' : 'rain' }),
  }),
}
