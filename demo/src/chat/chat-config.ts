// Every default of the chat demo, in one place.

/** IndexedDB database of the chat (the projection lab keeps its sample in its own). */
export const CHAT_DATABASE_NAME = 'threadlens-demo-chat'

/** Memory id of the assistant: `save_note` writes to its `world` space; every thread sees it. */
export const ASSISTANT_MEMORY_ID = 'demo-assistant'

/** localStorage key of the embedded devtools' UI state (the lab's floating devtools use the default key). */
export const DEVTOOLS_STORAGE_KEY = 'threadlens-demo-chat-devtools'

/** localStorage key of the chosen policy (a UI preference: no secret, no history). */
export const POLICY_STORAGE_KEY = 'threadlens-demo-chat-policy'

/** Where the demo remembers whether sync is on and its server (src/chat/sync). */
export const SYNC_STORAGE_KEY = 'threadlens-demo-chat-sync'

export const DEFAULT_TITLE = 'New chat'

export const SYSTEM_PROMPT =
  'You are the threadlens demo assistant. Answer briefly. Use the tools: calculator for arithmetic, ' +
  'convert_units for length, mass and temperature, save_note when the user asks you to remember something, ' +
  'read_document to read a document or report.'

/** Turns appended by the "long session" button. */
export const LONG_SESSION_TURNS = 240

/** Chat items rendered at once; older ones behind "show earlier". */
export const CHAT_PAGE_SIZE = 150

export interface ScriptedSpeed {
  /** Pause before each streamed chunk, in ms. */
  readonly delayMs: number
  /** Characters per chunk. */
  readonly chunkSize: number
}

/** Streaming speed of the offline model: `?delay=0` (ms per chunk) and `?chunk=8` (characters) override it, e.g. for tests. */
export function scriptedSpeed(search: string = globalThis.location?.search ?? ''): ScriptedSpeed {
  const params = new URLSearchParams(search)
  const number = (name: string, fallback: number, min: number): number => {
    const value = Number(params.get(name) ?? Number.NaN)
    return Number.isFinite(value) && value >= min ? value : fallback
  }
  return { delayMs: number('delay', 15, 0), chunkSize: Math.floor(number('chunk', 4, 1)) }
}
