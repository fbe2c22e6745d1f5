import { anthropic, modelSummarizer, openAICompatible, type ModelClient } from '@threadlens/agent'
import { scriptedModel } from '@threadlens/agent/testing'
import { extractiveSummarizer, type Summarizer } from '@threadlens/core'
import type { ScriptedSpeed } from '../chat-config'
import { demoScript } from './demo-script'

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

/** The client and summarizer for `settings`; throws `InvalidModelClientOptionsError` on a bad URL or a missing field. */
export function modelSetup(settings: ModelSettings, speed: ScriptedSpeed): ModelSetup {
  if (settings.provider === 'offline') {
    return {
      client: scriptedModel({ id: OFFLINE_MODEL_ID, script: demoScript, delayMs: speed.delayMs, chunkSize: speed.chunkSize }),
      summarizer: extractiveSummarizer(),
      label: 'offline (scripted)',
    }
  }
  const client =
    settings.provider === 'anthropic'
      ? anthropic({ apiKey: settings.apiKey, model: settings.model, ...(settings.baseURL.trim() === '' ? {} : { baseURL: settings.baseURL.trim() }) })
      : openAICompatible({ baseURL: settings.baseURL.trim(), model: settings.model, ...(settings.apiKey === '' ? {} : { apiKey: settings.apiKey }) })
  return { client, summarizer: modelSummarizer({ model: client }), label: `${settings.model} · ${settings.provider === 'anthropic' ? 'Anthropic' : settings.baseURL}` }
}
