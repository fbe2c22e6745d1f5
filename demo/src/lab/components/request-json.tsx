import { toAnthropicMessages, toOpenAIChat, type ProjectionResult } from '@threadlens/core'
import { useId, useMemo, useState } from 'react'

type Provider = 'none' | 'openai' | 'anthropic'

const providers: readonly { readonly id: Provider; readonly label: string }[] = [
  { id: 'none', label: 'hidden' },
  { id: 'openai', label: 'OpenAI chat' },
  { id: 'anthropic', label: 'Anthropic messages' },
]

/** The projection as each provider's request body, shown as preformatted text. */
export function RequestJson({ result }: { result: ProjectionResult }) {
  const [provider, setProvider] = useState<Provider>('none')
  const name = useId()
  const json = useMemo(() => {
    if (provider === 'openai') return JSON.stringify({ messages: toOpenAIChat(result) }, null, 2)
    if (provider === 'anthropic') return JSON.stringify(toAnthropicMessages(result), null, 2)
    return ''
  }, [provider, result])
  return (
    <section className="panel request-json" aria-labelledby="request-heading">
      <h2 id="request-heading">Request JSON</h2>
      <fieldset className="segmented">
        <legend className="visually-hidden">Request format</legend>
        {providers.map((option) => (
          <label key={option.id} className={provider === option.id ? 'active' : undefined}>
            <input type="radio" name={name} value={option.id} checked={provider === option.id} onChange={() => setProvider(option.id)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      {provider === 'none' ? (
        <p className="muted">Pick a format to see the exact request body this projection becomes.</p>
      ) : (
        <pre className="json" tabIndex={0} data-testid="request-json" data-provider={provider} aria-label={`${provider} request JSON`}>
          {json}
        </pre>
      )}
    </section>
  )
}
