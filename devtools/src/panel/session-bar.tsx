import type { SessionSource } from '@threadlens/core'
import { useRetryCountdown, useSession } from '@threadlens/react'
import { useShallow } from 'zustand/react/shallow'

/** The live session's status, a badge in the header row (an idle one is left out of a narrow panel). */
export function SessionBadge({ session }: { readonly session: SessionSource }) {
  const status = useSession(session, (snapshot) => snapshot.status)
  const busy = status !== 'idle'
  return (
    <span className={`tl-badge ${busy ? 'tl-info' : 'tl-ok tl-wide-only'}`} data-testid="session-status">
      session: {status}
    </span>
  )
}

/**
 * The request in progress of a live session, on a row under the header while there is one: request
 * id, retry countdown, the server's window, running tools, streamed text. A failed call is not
 * repeated here: the last-call line under the header says how the newest call ended, its error
 * included, and the Calls tab has it in full.
 */
export function SessionBar({ session }: { readonly session: SessionSource }) {
  const { requestId, streamingText, runningTools, serverLimit } = useSession(
    session,
    useShallow((snapshot) => ({
      requestId: snapshot.requestId,
      streamingText: snapshot.streamingText,
      runningTools: snapshot.runningTools,
      serverLimit: snapshot.serverLimit,
    })),
  )
  const retry = useRetryCountdown(session)
  const tools = runningTools === undefined || runningTools.length === 0 ? undefined : runningTools
  const streaming = streamingText === undefined || streamingText === '' ? undefined : streamingText
  if (requestId === undefined && retry === undefined && serverLimit === undefined && tools === undefined && streaming === undefined) return null
  return (
    <div className="tl-header tl-session-bar" data-testid="session-bar">
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
      {tools === undefined ? null : (
        <span data-testid="session-tools">
          running: <span className="tl-mono">{tools.map((tool) => `${tool.name} (${tool.toolCallId})`).join(', ')}</span>
        </span>
      )}
      {streaming === undefined ? null : (
        <span
          className="tl-muted tl-grow"
          data-testid="session-streaming"
          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          streaming {streaming.length} characters: {streaming.slice(-120)}
        </span>
      )}
    </div>
  )
}
