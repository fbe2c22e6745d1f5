import { anthropic, modelSummarizer, openAICompatible } from '@threadlens/agent'
import { scriptedModel } from '@threadlens/agent/testing'
import { extractiveSummarizer } from '@threadlens/core'
import type { ScriptedSpeed } from '../chat-config'
import { demoScript } from './demo-script'
import { modelLabel, OFFLINE_MODEL_ID, type ModelSettings, type ModelSetup } from './model-settings'

/** The client and summarizer for `settings`; throws `InvalidModelClientOptionsError` on a bad URL or a missing field. */
export function modelSetup(settings: ModelSettings, speed: ScriptedSpeed): ModelSetup {
  const label = modelLabel(settings)
  if (settings.provider === 'offline') {
    return {
      client: scriptedModel({ id: OFFLINE_MODEL_ID, script: demoScript, delayMs: speed.delayMs, chunkSize: speed.chunkSize }),
      summarizer: extractiveSummarizer(),
      label,
    }
  }
  const client =
    settings.provider === 'anthropic'
      ? anthropic({ apiKey: settings.apiKey, model: settings.model, ...(settings.baseURL.trim() === '' ? {} : { baseURL: settings.baseURL.trim() }) })
      : openAICompatible({ baseURL: settings.baseURL.trim(), model: settings.model, ...(settings.apiKey === '' ? {} : { apiKey: settings.apiKey }) })
  return { client, summarizer: modelSummarizer({ model: client }), label }
}
