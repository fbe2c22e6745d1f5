/**
 * @threadlens/agent/testing: a model client that answers from a script, for tests, demos and
 * trying threadlens without an API key (as the AI SDK's mock models).
 */
export type {
  ScriptAnswer,
  ScriptContext,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedReply,
  ScriptedRequest,
  ScriptedToolCall,
  ScriptStep,
} from '../model/scripted-model'
export { scriptedModel } from '../model/scripted-model'
export { ScriptExhaustedError } from '../model/errors'
