import { project, type ContextPolicy, type Memory, type TokenCounter, type ToolSchema } from '@threadlens/core'
import type { ThreadStore } from '@threadlens/store'
import { LONG_SESSION_TURNS } from '../chat-config'
import { longSessionInputs } from './long-session-inputs'

/**
 * Appends a few hundred realistic turns in one transaction (all or nothing), then says what the
 * next call now leaves out. The session summarizes before the next send (or on "Compact now").
 */
export async function appendLongSession(
  threads: ThreadStore,
  threadId: string,
  policy: ContextPolicy,
  counter: TokenCounter | undefined,
  tools: readonly ToolSchema[],
  memory: string | Memory | undefined,
): Promise<string> {
  const before = (await threads.get(threadId))?.entryCount ?? 0
  const batchId = `ls${before.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
  const entries = await threads.appendMany(threadId, longSessionInputs({ turns: LONG_SESSION_TURNS, batchId, seed: before + 1 }))
  const added = `Appended ${LONG_SESSION_TURNS} turns (${entries.length} entries).`
  if (counter === undefined) return added
  const { meta } = project({ thread: await threads.load(threadId), policy, counter, tools, ...(memory === undefined ? {} : { memory }) })
  const left = meta.dropped.filter((range) => range.reason !== 'applied').reduce((total, range) => total + range.toSeq - range.fromSeq + 1, 0)
  return left === 0
    ? `${added} All of it fits this policy's window.`
    : `${added} ${left} entries are now outside the context (greyed): send a message and the session summarizes them first, or press Compact now.`
}
