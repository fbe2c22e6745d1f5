import type { ModelClient } from '@threadlens/agent'
import type { Summarizer } from '@threadlens/core'

/**
 * Which model answers. The API key lives in React state and in the client's closure only: it is
 * never written to localStorage, IndexedDB or an export, and a reload forgets it.
 */
export type ModelSettings =
  | { readonly provider: 'offline' }
  | { readonly provider: 'openai-compatible'; readonly baseURL: string; readonly model: string; readonly apiKey: string }
  | { readonly provider: 'anthropic'; readonly baseURL: string; readonly model: string; readonly apiKey: string }

export const offlineSettings: ModelSettings = { provider: 'offline' }

export const OFFLINE_MODEL_ID = 'offline-demo'

export interface ModelSetup {
  readonly client: ModelClient
  readonly summarizer: Summarizer
  /** What the header shows. */
  readonly label: string
}

/** What the header shows for `settings`: known before the model clients (loaded on first use) are. */
export function modelLabel(settings: ModelSettings): string {
  if (settings.provider === 'offline') return 'offline (scripted)'
  return `${settings.model} · ${settings.provider === 'anthropic' ? 'Anthropic' : settings.baseURL}`
}
