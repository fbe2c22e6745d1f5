import type { Session } from '@threadlens/agent'
import type { ContextPolicy, Memory } from '@threadlens/core'
import { useEffect, useState } from 'react'

/**
 * What the chat's next call carries as memory, as the meter and the devtools project it: the
 * session's answer when there is a session, else the memory itself (no call has been made, so
 * nothing is held: the projection renders it under the policy as a session's first call does).
 */
export async function nextCallMemory(
  session: Session | undefined,
  memory: Memory | undefined,
  policy: ContextPolicy,
): Promise<string | Memory | undefined> {
  return session === undefined ? memory : session.nextCallMemory({ policy })
}

/**
 * The memory the chat's next call carries, for its meter and devtools to project with: the session's
 * own answer (`session.nextCallMemory`: rendered under the policy and held as the policy's cache
 * says) once there is a session; before that the memory itself, which the projection renders under
 * the policy exactly as a session's first call does. Asked again when the memory, the policy or the
 * thread changes and whenever the session is idle again (a call may have moved the hold).
 */
export function useNextCallMemory(
  session: Session | undefined,
  memory: Memory | undefined,
  policy: ContextPolicy,
  threadVersion: number,
  idle: boolean,
): string | Memory | undefined {
  const [answer, setAnswer] = useState<{ readonly session: Session; readonly text: string | Memory | undefined } | undefined>(undefined)
  useEffect(() => {
    if (session === undefined || !idle) return
    let current = true
    nextCallMemory(session, memory, policy).then(
      (text) => {
        if (current) setAnswer({ session, text })
      },
      () => {
        if (current) setAnswer(undefined)
      },
    )
    return () => {
      current = false
    }
  }, [session, memory, policy, threadVersion, idle])
  // Until this session has answered (or when it could not), the memory itself.
  return answer !== undefined && answer.session === session ? answer.text : memory
}
