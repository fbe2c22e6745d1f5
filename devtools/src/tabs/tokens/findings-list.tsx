import { withPolicy, type ProjectionResult, type Thread } from '@threadlens/core'
import { useMemo } from 'react'
import { findings, type Finding } from '../../view-models/findings'
import { usePanel } from '../../panel/panel-context'

const toneClass = { warn: 'tl-warn', danger: 'tl-danger', plain: '' } as const
const kindLabel: Readonly<Record<Finding['kind'], string>> = {
  'near-overflow': 'overflow',
  'large-tool-result': 'large result',
  repeated: 'repeated',
  'stale-image': 'old image',
  'unused-tools': 'unused tools',
  'policy-saving': 'policy',
}

/**
 * What wastes the window in this projection, biggest first: each finding in a sentence that names
 * the setting to change, its entry a click away in the timeline, and the setting a click away in
 * the Policy lab's preview.
 */
export function FindingsList({ result, thread }: { readonly result: ProjectionResult; readonly thread: Thread }) {
  const panel = usePanel()
  const tools = panel.projectOptions.tools
  const list = useMemo(
    () =>
      findings({
        meta: result.meta,
        entries: thread.entries,
        entryAt: (seq) => thread.bySeq(seq),
        toolNames: tools?.map((tool) => tool.name) ?? [],
        policy: panel.policy,
      }),
    [result.meta, thread, tools, panel.policy],
  )
  const open = (seq: number) => {
    panel.selectSeq(seq)
    panel.ui.getState().setTab('timeline')
  }
  // The suggested setting, previewed in the Policy lab on top of the policy shown (nothing is written).
  const preview = (change: NonNullable<Finding['change']>) => {
    panel.setLab(`finding: ${change.label}`, withPolicy(panel.policy, change.options))
    panel.ui.getState().setTab('lab')
  }
  return (
    <section className="tl-card" aria-label="findings" data-testid="findings" data-count={list.length}>
      <h3 className="tl-h">
        {list.length === 0
          ? 'Findings: nothing wastes the window'
          : `Findings: ${list.length} ${list.length === 1 ? 'thing wastes' : 'things waste'} the window`}
      </h3>
      {list.length === 0 ? null : (
        <ul className="tl-findings">
          {list.map((finding) => (
            <li key={finding.id} className="tl-finding" data-testid="finding" data-kind={finding.kind} data-seq={finding.seq}>
              <span className={`tl-badge ${toneClass[finding.tone]}`}>{kindLabel[finding.kind]}</span> <span>{finding.text}</span>
              {/* Repeated on purpose: the same link-button shape as the preview button below (a component for the two made the
                  tab's chunk bigger gzipped). */}
              {finding.seq === undefined ? null : (
                <>
                  {' '}
                  <button
                    type="button"
                    className="tl-link tl-mono"
                    data-testid="finding-open"
                    onClick={() => open(finding.seq as number)}
                    title="show in the timeline"
                  >
                    #{finding.seq}
                  </button>
                </>
              )}
              {finding.change === undefined ? null : (
                <>
                  {' '}
                  <button
                    type="button"
                    className="tl-link"
                    data-testid="finding-preview"
                    onClick={() => preview(finding.change as NonNullable<Finding['change']>)}
                    title="preview this setting in the Policy lab (nothing is written)"
                  >
                    preview {finding.change.label}
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
