import { withPolicy, type ContextPolicy } from '@threadlens/core'
import { listModels, policyForModel } from '@threadlens/core/models'
import { useProjection } from '@threadlens/react'
import { useMemo, useState } from 'react'
import { formatNumber } from '../../view-models/meter-parts'
import { fieldChange, fieldChecked, policyFields, type PolicyField } from '../../view-models/policy-fields'
import { usePanel } from '../../panel/panel-context'
import { LabDifference } from './lab-difference'

/** Try presets, models and single options; see what enters and leaves. Never writes. */
export function PolicyLabTab() {
  const panel = usePanel()
  const [error, setError] = useState<string | undefined>(undefined)
  const [edits, setEdits] = useState(0)
  const current = panel.policy
  const base = useProjection(panel.threadId, panel.basePolicy, panel.projectOptions)
  const lab = useProjection(panel.threadId, current, panel.projectOptions)

  const choose = (id: string, policy: ContextPolicy | undefined) => {
    setError(undefined)
    setEdits(edits + 1)
    panel.setLab(id, policy)
  }
  const pickModel = (id: string) => {
    if (id === '') return
    const keep = panel.basePolicy.systemPrompt === undefined ? {} : { systemPrompt: panel.basePolicy.systemPrompt }
    choose(`model:${id}`, policyForModel(id, keep))
  }
  const edit = (field: PolicyField, raw: string | boolean) => {
    try {
      const next = withPolicy(current, fieldChange(field, raw))
      setError(undefined)
      panel.setLab(panel.labChoice.endsWith(' (edited)') ? panel.labChoice : `${panel.labChoice} (edited)`, next)
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught))
    }
  }

  return (
    <>
      <LabPicker onChoose={choose} onModel={pickModel} />
      <p className="tl-muted">
        Previewing only: the thread is never written. Projection, meter and timeline follow this policy until you pick “app policy”.
      </p>
      <details className="tl-card" open data-testid="lab-options">
        <summary className="tl-h">Options</summary>
        <form className="tl-lab-form" aria-label="policy options" data-testid="lab-form" onSubmit={(event) => event.preventDefault()}>
          {policyFields.map((field) => (
            <FieldInput
              key={`${field.name}-${edits}-${panel.labChoice.replace(' (edited)', '')}`}
              field={field}
              value={(current as Record<string, unknown>)[field.name]}
              onChange={(raw) => edit(field, raw)}
            />
          ))}
        </form>
        {error === undefined ? null : (
          <p className="tl-error" role="alert" data-testid="lab-error">
            {error}
          </p>
        )}
      </details>
      <LabDifference base={base} lab={lab} basePolicy={panel.basePolicy} current={current} />
    </>
  )
}

/** The row of policies to try: the app's own, the app's named choices, and one per known model. */
function LabPicker({ onChoose, onModel }: { onChoose(id: string, policy: ContextPolicy | undefined): void; onModel(id: string): void }) {
  const panel = usePanel()
  const models = useMemo(() => listModels(), [])
  return (
    <div className="tl-row">
      <button
        type="button"
        className="tl-button"
        aria-pressed={panel.labPolicy === undefined}
        data-testid="lab-app"
        onClick={() => onChoose('app', undefined)}
      >
        app policy
      </button>
      {panel.choices.map((choice) => (
        <button
          key={choice.id}
          type="button"
          className="tl-button"
          aria-pressed={panel.labChoice === choice.id}
          data-testid={`lab-${choice.id}`}
          onClick={() => onChoose(choice.id, choice.policy)}
        >
          {choice.label}
        </button>
      ))}
      <select
        className="tl-select"
        aria-label="policy for a model"
        data-testid="lab-model"
        value={panel.labChoice.startsWith('model:') ? panel.labChoice.slice(6).replace(' (edited)', '') : ''}
        onChange={(event) => onModel(event.target.value)}
      >
        <option value="">per model…</option>
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.id} ({model.provider}, {formatNumber(model.contextWindow)})
          </option>
        ))}
      </select>
    </div>
  )
}

function FieldInput({
  field,
  value,
  onChange,
}: {
  readonly field: PolicyField
  readonly value: unknown
  readonly onChange: (raw: string | boolean) => void
}) {
  const [draft, setDraft] = useState(value === undefined ? '' : String(value))
  const id = `tl-field-${field.name}`
  const control = (() => {
    switch (field.kind) {
      case 'boolean':
      case 'toggle':
        return (
          <input
            id={id}
            type="checkbox"
            checked={fieldChecked(field, value) === true}
            data-testid={`lab-field-${field.name}`}
            onChange={(event) => onChange(event.target.checked)}
          />
        )
      case 'choice':
        return (
          <select id={id} className="tl-select" value={String(value)} onChange={(event) => onChange(event.target.value)}>
            {field.options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        )
      default:
        return (
          <input
            id={id}
            className="tl-input"
            type={field.kind === 'number' ? 'number' : 'text'}
            step={field.kind === 'number' ? (field.step ?? 1) : undefined}
            placeholder={field.kind === 'number' && field.optional ? 'no limit' : field.kind === 'text' ? 'none' : undefined}
            value={draft}
            data-testid={`lab-field-${field.name}`}
            onChange={(event) => {
              setDraft(event.target.value)
              onChange(event.target.value)
            }}
          />
        )
    }
  })()
  return (
    <div className="tl-field">
      <label htmlFor={id}>{field.label}</label>
      {control}
    </div>
  )
}
