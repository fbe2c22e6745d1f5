import type { Memory } from '@threadlens/core'

/** The assistant's notes (memory `world`), as every call's memory segment shows them to the model. */
export function MemoryNotes({ memory }: { readonly memory: Memory | undefined }) {
  const notes = memory === undefined ? [] : Object.entries(memory.spaces.world.data)
  return (
    <section className="chat-notes" aria-labelledby="chat-notes-title" data-testid="memory-notes" data-rev={memory?.rev ?? 0}>
      <h2 id="chat-notes-title" className="chat-panel-title">
        Memory{' '}
        <span className="chat-muted">
          ({notes.length} {notes.length === 1 ? 'note' : 'notes'}, every chat)
        </span>
      </h2>
      {notes.length === 0 ? (
        <p className="chat-muted">Say &quot;remember that …&quot; and the assistant saves a note here.</p>
      ) : (
        <ul className="chat-note-list">
          {notes.map(([key, value]) => (
            <li key={key} data-testid="memory-note">
              <span className="chat-note-key">{key}</span> {typeof value === 'string' ? value : JSON.stringify(value)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
