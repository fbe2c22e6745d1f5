import type { SessionSource } from '@threadlens/core'
import { useRetryCountdown, useSession } from '@threadlens/react'
import { useShallow } from 'zustand/react/shallow'

/** The request in progress of a live session: status, request id, running tools, streamed text. */
export function SessionBar({ session }: { readonly session: SessionSource }) {
  const { status, requestId, streamingText, runningTools, lastError, serverLimit } = useSession(
    session,
    useShallow((snapshot) => ({
      status: snapshot.status,
      requestId: snapshot.requestId,
      streamingText: snapshot.streamingText,
      runningTools: snapshot.runningTools,
      lastError: snapshot.lastError,
      serverLimit: snapshot.serverLimit,
    })),
  )
  const retry = useRetryCountdown(session)
  const busy = status !== 'idle'
  return (
    <div className="tl-header" data-testid="session-bar" data-status={status}>
      <span className={`tl-badge ${busy ? 'tl-info' : 'tl-ok'}`} data-testid="session-status">
        session: {status}
      </span>
      {requestId === undefined ? null : <span className="tl-muted tl-mono">request {requestId}</span>}
      {retry === undefined ? null : (
        <span className="tl-badge tl-warn" role="status" data-testid="session-retry">
          {retry.error instanceof Error ? `${retry.error.name}: ` : ''}retrying in {retry.secondsLeft} s ({retry.attempt}/{retry.maxAttempts})
        </span>
      )}
      {serverLimit === undefined ? null : (
        <span
          className="tl-badge tl-warn"
          data-testid="session-server-limit"
          title={`The server said the request was too long${serverLimit.requestedTokens === undefined ? '' : ` (${serverLimit.requestedTokens.toLocaleString('en')} tokens)`}; this session projects within its window from now on.`}
        >
          server window {serverLimit.limitTokens.toLocaleString('en')} tokens: projecting within {serverLimit.maxInputTokens.toLocaleString('en')}
        </span>
      )}
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
