import { useId, useState, type FormEvent } from 'react'
import type { ModelSettings } from '../model/model-settings'

type Provider = ModelSettings['provider']

const defaults: Readonly<Record<Exclude<Provider, 'offline'>, { baseURL: string; model: string }>> = {
  'openai-compatible': { baseURL: 'http://localhost:11434/v1', model: 'llama3.2' },
  anthropic: { baseURL: '', model: 'claude-haiku-4-5' },
}

export interface SettingsPanelProps {
  readonly settings: ModelSettings
  /** Throws (or rejects) when the settings cannot make a client (the message is shown). */
  onApply(settings: ModelSettings): void | Promise<void>
  onClose(): void
}

/** Which model answers: the offline one, an OpenAI-compatible server, or Anthropic. */
export function SettingsPanel({ settings, onApply, onClose }: SettingsPanelProps) {
  const id = useId()
  const [provider, setProvider] = useState<Provider>(settings.provider)
  const [baseURL, setBaseURL] = useState(settings.provider === 'offline' ? defaults['openai-compatible'].baseURL : settings.baseURL)
  const [model, setModel] = useState(settings.provider === 'offline' ? defaults['openai-compatible'].model : settings.model)
  // The key exists only in this component's state and in the client made from it.
  const [apiKey, setApiKey] = useState(settings.provider === 'offline' ? '' : settings.apiKey)
  const [error, setError] = useState<string | undefined>(undefined)

  const choose = (next: Provider) => {
    if (next !== 'offline' && next !== provider) {
      setBaseURL(defaults[next].baseURL)
      setModel(defaults[next].model)
    }
    setProvider(next)
    setError(undefined)
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    try {
      await onApply(provider === 'offline' ? { provider } : { provider, baseURL, model: model.trim(), apiKey })
      onClose()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }
  const radios: readonly { value: Provider; label: string }[] = [
    { value: 'offline', label: 'Offline model (scripted, no network, no key)' },
    { value: 'openai-compatible', label: 'OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM…)' },
    { value: 'anthropic', label: 'Anthropic' },
  ]
  return (
    <form
      className="chat-settings"
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose()
      }}
      aria-labelledby={`${id}-title`}
      data-testid="settings-panel"
    >
      <h2 id={`${id}-title`} className="chat-panel-title">
        Model
      </h2>
      <fieldset className="chat-fieldset">
        <legend className="chat-visually-hidden">Provider</legend>
        {radios.map((radio) => (
          <label key={radio.value} className="chat-radio">
            <input type="radio" name={`${id}-provider`} value={radio.value} checked={provider === radio.value} onChange={() => choose(radio.value)} autoFocus={radio.value === settings.provider} />
            {radio.label}
          </label>
        ))}
      </fieldset>
      {provider === 'offline' ? null : (
        <div className="chat-settings-fields">
          <label className="chat-stack">
            <span>Base URL{provider === 'anthropic' ? ' (empty: https://api.anthropic.com/v1)' : ''}</span>
            <input className="chat-text" type="url" value={baseURL} onChange={(event) => setBaseURL(event.target.value)} required={provider === 'openai-compatible'} placeholder={provider === 'anthropic' ? 'https://api.anthropic.com/v1' : 'http://localhost:11434/v1'} />
          </label>
          <label className="chat-stack">
            <span>Model id</span>
            <input className="chat-text" value={model} onChange={(event) => setModel(event.target.value)} required placeholder="gpt-4o-mini" />
          </label>
          <label className="chat-stack">
            <span>API key{provider === 'openai-compatible' ? ' (local servers need none)' : ''}</span>
            <input className="chat-text" type="password" autoComplete="off" spellCheck={false} value={apiKey} onChange={(event) => setApiKey(event.target.value)} required={provider === 'anthropic'} />
          </label>
          <p className="chat-key-notice" role="note" data-testid="key-notice">
            Your API key is kept in this page&apos;s memory only. It is never stored: not in localStorage, not in IndexedDB, not in exports. Reloading the page forgets it.
            Requests go from your browser straight to the URL above (the server must allow this page&apos;s origin).
          </p>
        </div>
      )}
      {error === undefined ? null : (
        <p className="chat-error-text" role="alert">
          {error}
        </p>
      )}
      <div className="chat-row">
        <button type="submit" className="chat-button chat-button--primary">
          Use this model
        </button>
        <button type="button" className="chat-button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  )
}
