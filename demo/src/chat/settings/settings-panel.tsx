import { useId, useState, type FormEvent } from 'react'
import type { ModelSettings } from '../model/model-settings'

type Provider = ModelSettings['provider']

const defaults: Readonly<Record<Exclude<Provider, 'offline'>, { baseURL: string; model: string }>> = {
  'openai-compatible': { baseURL: 'http://localhost:11434/v1', model: 'llama3.2' },
  anthropic: { baseURL: '', model: 'claude-haiku-4-5' },
}

const radios: readonly { value: Provider; label: string }[] = [
  { value: 'offline', label: 'Offline model (scripted, no network, no key)' },
  { value: 'openai-compatible', label: 'OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM…)' },
  { value: 'anthropic', label: 'Anthropic' },
]

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
      <ProviderChoice name={`${id}-provider`} provider={provider} initial={settings.provider} onChoose={choose} />
      {/* Repeated on purpose: props one a line, the shape of demo/src/chat/chat-shell.tsx and demo/src/lab/lab-app.tsx (other components, other props). */}
      {provider === 'offline' ? null : (
        <ServerFields
          provider={provider}
          baseURL={baseURL}
          model={model}
          apiKey={apiKey}
          onBaseURL={setBaseURL}
          onModel={setModel}
          onApiKey={setApiKey}
        />
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

/** The three providers as radio buttons; the one in use has focus when the panel opens. */
function ProviderChoice({
  name,
  provider,
  initial,
  onChoose,
}: {
  readonly name: string
  readonly provider: Provider
  readonly initial: Provider
  onChoose(provider: Provider): void
}) {
  return (
    <fieldset className="chat-fieldset">
      <legend className="chat-visually-hidden">Provider</legend>
      {radios.map((radio) => (
        <label key={radio.value} className="chat-radio">
          <input
            type="radio"
            name={name}
            value={radio.value}
            checked={provider === radio.value}
            onChange={() => onChoose(radio.value)}
            autoFocus={radio.value === initial}
          />
          {radio.label}
        </label>
      ))}
    </fieldset>
  )
}

interface ServerFieldsProps {
  readonly provider: Exclude<Provider, 'offline'>
  readonly baseURL: string
  readonly model: string
  readonly apiKey: string
  onBaseURL(value: string): void
  onModel(value: string): void
  onApiKey(value: string): void
}

/** Where a server model lives (base URL, model id, key), with the notice that the key is never stored. */
function ServerFields({ provider, baseURL, model, apiKey, onBaseURL, onModel, onApiKey }: ServerFieldsProps) {
  return (
    <div className="chat-settings-fields">
      <label className="chat-stack">
        <span>Base URL{provider === 'anthropic' ? ' (empty: https://api.anthropic.com/v1)' : ''}</span>
        <input
          className="chat-text"
          type="url"
          value={baseURL}
          onChange={(event) => onBaseURL(event.target.value)}
          required={provider === 'openai-compatible'}
          placeholder={provider === 'anthropic' ? 'https://api.anthropic.com/v1' : 'http://localhost:11434/v1'}
        />
      </label>
      <label className="chat-stack">
        <span>Model id</span>
        <input className="chat-text" value={model} onChange={(event) => onModel(event.target.value)} required placeholder="gpt-4o-mini" />
      </label>
      <label className="chat-stack">
        <span>API key{provider === 'openai-compatible' ? ' (local servers need none)' : ''}</span>
        <input
          className="chat-text"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          onChange={(event) => onApiKey(event.target.value)}
          required={provider === 'anthropic'}
        />
      </label>
      <p className="chat-key-notice" role="note" data-testid="key-notice">
        Your API key is kept in this page&apos;s memory only. It is never stored: not in localStorage, not in IndexedDB, not in exports. Reloading the
        page forgets it. Requests go from your browser straight to the URL above (the server must allow this page&apos;s origin).
      </p>
    </div>
  )
}
