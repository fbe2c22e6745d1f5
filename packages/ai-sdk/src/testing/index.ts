export type { ScriptedChatModelOptions } from './scripted-chat-model'
export { scriptedChatModel } from './scripted-chat-model'
