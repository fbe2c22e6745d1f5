import type { ContextPolicy, PolicyOptions } from '@threadlens/core'

export type PolicyField =
  | {
      readonly kind: 'number'
      readonly name: keyof PolicyOptions & keyof ContextPolicy
      readonly label: string
      readonly optional: boolean
      readonly step?: number
    }
  | { readonly kind: 'boolean'; readonly name: keyof PolicyOptions & keyof ContextPolicy; readonly label: string }
  | { readonly kind: 'choice'; readonly name: keyof PolicyOptions & keyof ContextPolicy; readonly label: string; readonly options: readonly string[] }
  | { readonly kind: 'text'; readonly name: keyof PolicyOptions & keyof ContextPolicy; readonly label: string }
  /** An option whose value is a group of settings: on (`{}`, its defaults) or off (absent). */
  | { readonly kind: 'toggle'; readonly name: 'recall'; readonly label: string }

/** The policy options the lab lets you edit, in the order shown. */
export const policyFields: readonly PolicyField[] = [
  { kind: 'number', name: 'maxInputTokens', label: 'window (maxInputTokens)', optional: false },
  { kind: 'number', name: 'reserveOutputTokens', label: 'reserved output', optional: false },
  { kind: 'number', name: 'maxTurns', label: 'max turns', optional: true },
  { kind: 'number', name: 'maxMessages', label: 'max messages', optional: true },
  { kind: 'number', name: 'keepLastTurns', label: 'keep last turns', optional: false },
  { kind: 'choice', name: 'toolTrace', label: 'tool trace', options: ['transparent', 'boundary', 'masked'] },
  { kind: 'choice', name: 'unresolvedToolCalls', label: 'unresolved calls', options: ['interrupt', 'drop'] },
  { kind: 'boolean', name: 'dedupeToolResults', label: 'dedupe tool results' },
  { kind: 'number', name: 'pruneToolOutputsOverTokens', label: 'prune tool outputs over (tokens)', optional: true },
  { kind: 'boolean', name: 'cacheFriendly', label: 'cache-friendly window' },
  { kind: 'toggle', name: 'recall', label: 'recall older entries that match the newest message' },
  { kind: 'number', name: 'cacheLowWaterRatio', label: 'cache low-water ratio', optional: false, step: 0.05 },
  { kind: 'number', name: 'summarizeAtRatio', label: 'summarize at ratio', optional: false, step: 0.05 },
  { kind: 'choice', name: 'summaryRole', label: 'summary role', options: ['system', 'user'] },
  { kind: 'choice', name: 'tokenizer', label: 'tokenizer', options: ['o200k_base', 'cl100k_base', 'heuristic'] },
  { kind: 'text', name: 'systemPrompt', label: 'system prompt' },
]

/** The change an edited form value makes (`undefined` clears an optional option). */
export function fieldChange(field: PolicyField, raw: string | boolean): PolicyOptions {
  switch (field.kind) {
    case 'boolean':
      return { [field.name]: raw === true } as PolicyOptions
    case 'toggle':
      return { [field.name]: raw === true ? {} : undefined }
    case 'choice':
      return { [field.name]: String(raw) } as PolicyOptions
    case 'text':
      return { [field.name]: raw === '' ? undefined : String(raw) } as PolicyOptions
    case 'number': {
      const text = String(raw).trim()
      if (text === '' && field.optional) return { [field.name]: undefined } as PolicyOptions
      return { [field.name]: Number(text) } as PolicyOptions
    }
  }
}

/** Whether a form control is checked for this option's value (`undefined` for controls that are not checkboxes). */
export function fieldChecked(field: PolicyField, value: unknown): boolean | undefined {
  if (field.kind === 'boolean') return value === true
  if (field.kind === 'toggle') return value !== undefined
  return undefined
}

/** A value as the "changed" list shows it: an option group as `{ name: value, … }` with spaces (so it wraps), long texts cut. */
function valueText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const text = JSON.stringify(value)
    return text !== undefined && text.length > 40 ? `${text.slice(0, 39)}…"` : text
  }
  return `{ ${Object.entries(value)
    .map(([key, inner]) => `${key}: ${valueText(inner) ?? 'unset'}`)
    .join(', ')} }`
}

/** Options whose values differ between two policies, for the "changed" list. */
export function changedOptions(before: ContextPolicy, after: ContextPolicy): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  const changed: string[] = []
  for (const name of names) {
    const a = JSON.stringify((before as Record<string, unknown>)[name])
    const b = JSON.stringify((after as Record<string, unknown>)[name])
    if (a !== b)
      changed.push(
        `${name}: ${valueText((before as Record<string, unknown>)[name]) ?? 'unset'} → ${valueText((after as Record<string, unknown>)[name]) ?? 'unset'}`,
      )
  }
  return changed
}
