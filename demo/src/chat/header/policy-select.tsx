import { useId } from 'react'
import { isModelChoiceId, type ChatPolicyOption } from '../policy/chat-policies'

/** Switches the policy of every next call; nothing is written to the thread. */
export function PolicySelect({
  options,
  value,
  onChange,
}: {
  readonly options: readonly ChatPolicyOption[]
  readonly value: string
  onChange(id: string): void
}) {
  const id = useId()
  const presets = options.filter((option) => !isModelChoiceId(option.id))
  const models = options.filter((option) => isModelChoiceId(option.id))
  return (
    <span className="chat-field">
      <label htmlFor={id} className="chat-field-label">
        Policy
      </label>
      <select id={id} className="chat-select" data-testid="chat-policy-select" value={value} onChange={(event) => onChange(event.target.value)}>
        <OptionGroup label="Presets" options={presets} />
        {models.length === 0 ? null : <OptionGroup label="Per model (policyForModel)" options={models} />}
      </select>
    </span>
  )
}

function OptionGroup({ label, options }: { readonly label: string; readonly options: readonly ChatPolicyOption[] }) {
  return (
    <optgroup label={label}>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.label}
        </option>
      ))}
    </optgroup>
  )
}
