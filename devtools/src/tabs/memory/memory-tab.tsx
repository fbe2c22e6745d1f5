import { useMemory } from '@threadlens/react'
import { CollapsibleText } from '../../components/collapsible-text'
import { COLLAPSE_JSON_AFTER_CHARS } from '../../constants'
import { usePanel } from '../../panel/panel-context'

/** The agent's memory spaces with data and revisions, live. */
export function MemoryTab() {
  const panel = usePanel()
  if (panel.agentId === undefined) {
    return (
      <p className="tl-muted" data-testid="memory-none">
        No memory to show: pass agentId to the devtools (and a memory store to createThreadlensClient).
      </p>
    )
  }
  return <MemorySpaces agentId={panel.agentId} />
}

function MemorySpaces({ agentId }: { readonly agentId: string }) {
  const snapshot = useMemory(agentId)
  if (snapshot.status === 'error') {
    return (
      <p className="tl-error" role="alert">
        {snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error)}
      </p>
    )
  }
  const memory = snapshot.memory
  if (memory === undefined) return <p className="tl-muted">loading memory…</p>
  return (
    <div data-testid="memory-spaces" data-rev={memory.rev}>
      <p className="tl-muted">
        memory <span className="tl-mono">{memory.id}</span> · rev {memory.rev} · updated{' '}
        {memory.updatedAt === 0 ? 'never' : new Date(memory.updatedAt).toISOString()}
      </p>
      {Object.entries(memory.spaces).map(([name, space]) => (
        <section key={name} className="tl-segment" data-testid="memory-space" data-name={name} data-rev={space.rev}>
          <h3>
            {name}
            <span className="tl-muted">
              {space.kind} · rev {space.rev} · {Array.isArray(space.data) ? `${space.data.length} items` : `${Object.keys(space.data).length} keys`}
            </span>
          </h3>
          <div style={{ padding: '6px 8px' }}>
            <CollapsibleText pre text={JSON.stringify(space.data, null, 2)} limit={COLLAPSE_JSON_AFTER_CHARS} />
            {Object.keys(space.metadata).length === 0 ? null : <CollapsibleText pre text={`metadata ${JSON.stringify(space.metadata)}`} />}
          </div>
        </section>
      ))}
    </div>
  )
}
