import { fateLabel, type ContextFate } from './context-fates'

/** Whether the next call sends this entry, and if not, why. */
export function ContextBadge({ fate }: { readonly fate: ContextFate }) {
  if (fate.state === 'included' || fate.state === 'new') return null
  return (
    <span className={`chat-badge chat-badge--${fate.state}`} data-testid="context-badge">
      {fateLabel(fate)}
    </span>
  )
}

/** True when the entry is not sent as it is (greyed in the chat). */
export function isOutOfContext(fate: ContextFate): boolean {
  return fate.state === 'dropped' || fate.state === 'summarized'
}
