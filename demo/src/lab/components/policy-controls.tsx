import { policyChoices } from '../policies'
import type { CounterChoice, CounterState } from '../use-token-counter'

const counterChoices: readonly { readonly id: CounterChoice; readonly label: string }[] = [
  { id: 'o200k_base', label: 'o200k_base (exact)' },
  { id: 'cl100k_base', label: 'cl100k_base (exact)' },
  { id: 'heuristic', label: 'heuristic (estimate)' },
]

interface PolicyControlsProps {
  readonly policyId: string
  readonly onPolicyChange: (id: string) => void
  readonly counterId: CounterChoice
  readonly onCounterChange: (id: CounterChoice) => void
  readonly counterState: CounterState
}

export function PolicyControls(props: PolicyControlsProps) {
  const { counterState } = props
  return (
    <div className="controls">
      <ChoiceSelect label="Policy" testId="preset-select" choices={policyChoices} value={props.policyId} onChange={props.onPolicyChange} />
      <ChoiceSelect label="Token counter" testId="counter-select" choices={counterChoices} value={props.counterId} onChange={props.onCounterChange} />
      <span className="counter-status" role="status" data-testid="counter-status" data-status={counterState.status}>
        {counterState.status === 'loading' ? 'counting…' : null}
        {counterState.status === 'ready' ? `${counterState.counter.id} ready` : null}
        {counterState.status === 'error' ? `could not load ${counterState.id}: ${counterState.message}` : null}
      </span>
    </div>
  )
}

/** A labelled select over `choices` (each an `<option>` with its id as the value). */
function ChoiceSelect<T extends string>({
  label,
  testId,
  choices,
  value,
  onChange,
}: {
  readonly label: string
  readonly testId: string
  readonly choices: readonly { readonly id: T; readonly label: string }[]
  readonly value: T
  readonly onChange: (id: T) => void
}) {
  return (
    <label>
      {label}
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  )
}
