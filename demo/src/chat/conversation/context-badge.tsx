import { describeFate, type EntryFate } from '@threadlens/core/views'

/** Whether the next call sends this entry, and if not, why (core's words for the fate). */
export function ContextBadge({ fate }: { readonly fate: EntryFate }) {
  if ((fate.state === 'included' && fate.reduced === undefined) || fate.state === 'unprojected') return null
  return (
    <span className={`chat-badge chat-badge--${fate.state === 'included' ? 'reduced' : fate.state}`} data-testid="context-badge">
      {describeFate(fate).text}
    </span>
  )
}

/** True when the entry is not sent as it is (greyed in the chat). */
export function isOutOfContext(fate: EntryFate): boolean {
  return fate.state === 'dropped' || fate.state === 'summarized'
}
