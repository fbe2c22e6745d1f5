/**
 * What only sending needs — the session, the model clients, the tools (with zod's JSON Schema
 * conversion) and the recall index — in one module the chat loads after its first paint (`load-chat-agent.ts`), so the
 * first screen does not wait for it.
 */
export { createSession, SessionBusyError } from '@threadlens/agent'
export { createRecallIndex } from '@threadlens/core/recall'
export { modelSetup } from '../model/model-setup'
export { demoTools } from '../tools/demo-tools'
