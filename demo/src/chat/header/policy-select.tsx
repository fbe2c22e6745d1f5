import { useId } from 'react'
import type { ChatPolicyChoice } from '../policy/chat-policies'

/** Switches the policy of every next call; nothing is written to the thread. */
export function PolicySelect({ choices, value, onChange }: { readonly choices: readonly ChatPolicyChoice[]; readonly value: string; onChange(id: string): void }) {
  const id = useId()
  const presets = choices.filter((choice) => !choice.id.startsWith('model:'))
  const models = choices.filter((choice) => choice.id.startsWith('model:'))
  return (
    <span className="chat-field">
      <label htmlFor={id} className="chat-field-label">
        Policy
      </label>
      <select id={id} className="chat-select" data-testid="chat-policy-select" value={value} onChange={(event) => onChange(event.target.value)}>
        <optgroup label="Presets">
          {presets.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </optgroup>
        {models.length === 0 ? null : (
          <optgroup label="Per model (policyForModel)">
            {models.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </span>
  )
}
