import type { Session } from '@threadlens/agent'
import { useRetryCountdown, useSession } from '@threadlens/react'

/** What the model server is doing to this chat now: a retry being waited for, a smaller real window. */
export function ModelServerNotices({ session }: { readonly session: Session }) {
  const retry = useRetryCountdown(session)
  const serverLimit = useSession(session, (snapshot) => snapshot.serverLimit)
  return (
    <>
      {retry === undefined ? null : (
        <p className="chat-notice chat-notice--busy" role="status" data-testid="retry-notice">
          The model server failed{retry.error instanceof Error ? ` (${retry.error.name})` : ''}: retrying in {retry.secondsLeft} s ({retry.attempt}/
          {retry.maxAttempts}).
        </p>
      )}
      {serverLimit === undefined ? null : (
        <p className="chat-notice" role="status" data-testid="server-limit-notice">
          The server's real context window is {serverLimit.limitTokens.toLocaleString('en')} tokens, smaller than the policy's: this chat now sends at
          most {serverLimit.maxInputTokens.toLocaleString('en')} tokens per call.
        </p>
      )}
    </>
  )
}
