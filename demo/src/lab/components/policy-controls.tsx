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
      <label>
        Policy
        <select data-testid="preset-select" value={props.policyId} onChange={(event) => props.onPolicyChange(event.target.value)}>
          {policyChoices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Token counter
        <select data-testid="counter-select" value={props.counterId} onChange={(event) => props.onCounterChange(event.target.value as CounterChoice)}>
          {counterChoices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <span className="counter-status" role="status" data-testid="counter-status" data-status={counterState.status}>
        {counterState.status === 'loading' ? 'counting…' : null}
        {counterState.status === 'ready' ? `${counterState.counter.id} ready` : null}
        {counterState.status === 'error' ? `could not load ${counterState.id}: ${counterState.message}` : null}
      </span>
    </div>
  )
}
