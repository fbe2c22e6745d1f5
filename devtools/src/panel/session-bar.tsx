import { useSession, type SessionSource } from '@threadlens/react'
import { useShallow } from 'zustand/react/shallow'

/** The request in progress of a live session: status, request id, running tools, streamed text. */
export function SessionBar({ session }: { readonly session: SessionSource }) {
  const { status, requestId, streamingText, runningTools, lastError } = useSession(
    session,
    useShallow((snapshot) => ({
      status: snapshot.status,
      requestId: snapshot.requestId,
      streamingText: snapshot.streamingText,
      runningTools: snapshot.runningTools,
      lastError: snapshot.lastError,
    })),
  )
  const busy = status !== 'idle'
  return (
    <div className="tl-header" data-testid="session-bar" data-status={status}>
      <span className={`tl-badge ${busy ? 'tl-info' : 'tl-ok'}`} data-testid="session-status">
        session: {status}
      </span>
      {requestId === undefined ? null : <span className="tl-muted tl-mono">request {requestId}</span>}
      {runningTools === undefined || runningTools.length === 0 ? null : (
        <span data-testid="session-tools">
          running: <span className="tl-mono">{runningTools.map((tool) => `${tool.name} (${tool.toolCallId})`).join(', ')}</span>
        </span>
      )}
      {streamingText === undefined || streamingText === '' ? null : (
        <span className="tl-muted tl-grow" data-testid="session-streaming" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          streaming {streamingText.length} characters: {streamingText.slice(-120)}
        </span>
      )}
      {lastError === undefined ? null : (
        <span className="tl-error" role="alert">
          {lastError instanceof Error ? lastError.message : String(lastError)}
        </span>
      )}
    </div>
  )
}
