import { useEffect, useState } from 'react'
import type { SessionRetry, SessionSource } from '@threadlens/core'
import { useSession } from './use-session'

/** A retry in progress, with the whole seconds left before the next attempt. */
export interface RetryCountdown extends SessionRetry {
  readonly secondsLeft: number
}

/**
 * The session's retry wait as a countdown that updates every second, for "retrying in 4 s (2/3)";
 * `undefined` when the session is not waiting to retry.
 */
export function useRetryCountdown(session: SessionSource): RetryCountdown | undefined {
  const retry = useSession(session, (snapshot) => snapshot.retry)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (retry === undefined) return undefined
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [retry])
  if (retry === undefined) return undefined
  return { ...retry, secondsLeft: Math.max(0, Math.ceil((retry.retryAt - now) / 1000)) }
}
