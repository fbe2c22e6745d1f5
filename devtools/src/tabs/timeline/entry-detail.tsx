import type { Entry, TokenCounter } from '@threadlens/core'
import { CollapsibleText } from '../../components/collapsible-text'
import { CopyButton } from '../../components/copy-button'
import { COLLAPSE_JSON_AFTER_CHARS } from '../../constants'
import { describeFate, type FateIndex } from '@threadlens/core/views'
import { refsText } from '../../view-models/entry-preview'
import { fateInWords } from '../../view-models/plain-words'
import { recallDetail } from '../../view-models/recall-words'
import { usePanel } from '../../panel/panel-context'

/** One entry in full: fate and rule, refs, tokens, and its JSON (copyable). */
export function EntryDetail({
  entry,
  fates,
  counter,
  onClose,
}: {
  readonly entry: Entry
  readonly fates: FateIndex
  readonly counter: TokenCounter
  readonly onClose: () => void
}) {
  const fate = fates.fateOf(entry.seq)
  const { label, rule } = describeFate(fate)
  const words = fateInWords(fate, usePanel().policy)
  const recalled = recallDetail(fate)
  const json = JSON.stringify(entry, null, 2)
  return (
    <aside className="tl-detail" data-testid="entry-detail" data-seq={entry.seq} aria-label={`entry ${entry.seq}`}>
      <div className="tl-row">
        <strong>
          #{entry.seq} {entry.kind}
        </strong>
        <span className="tl-grow" />
        <CopyButton text={json} label="copy JSON" />
        <button type="button" className="tl-button" onClick={onClose} aria-label="close entry">
          ×
        </button>
      </div>
      <p>
        <span className="tl-badge">{label}</span>{' '}
        {words === undefined ? (
          <span className="tl-muted">{rule}</span>
        ) : (
          <span data-testid="entry-fate-words" title={`rule: ${rule}`}>
            {words}
          </span>
        )}
      </p>
      {recalled === undefined ? null : <p data-testid="entry-recall">{recalled}</p>}
      <p className="tl-muted tl-mono">
        {refsText(entry) || 'no refs'} · {counter.countEntry(entry)} tokens ({counter.id}) · {new Date(entry.createdAt).toISOString()}
      </p>
      <CollapsibleText pre text={json} limit={COLLAPSE_JSON_AFTER_CHARS} />
    </aside>
  )
}
