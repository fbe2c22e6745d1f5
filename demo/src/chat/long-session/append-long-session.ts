import { project, type ContextPolicy, type Memory, type ProjectionMeta, type TokenCounter, type ToolSchema } from '@threadlens/core'
import type { ThreadStore } from '@threadlens/store'
import { LONG_SESSION_TURNS } from '../chat-config'
import { createRecallIndex } from '@threadlens/core/recall'
import { recallIndexFor } from '../session/recall-indexes'
import { longSessionInputs, recallFact } from './long-session-inputs'

/** What recall did for the session's last question, in a sentence ('' when the policy has no recall). */
export function recallSentence(meta: ProjectionMeta): string {
  const recall = meta.recall
  if (recall === undefined) return ''
  const about = `Its last question asks about something from ${recallFact.turnsBack} turns back`
  if (recall.skipped === 'nothing-older') return ` ${about}; all of it is still in the context, so there is nothing to recall.`
  if (recall.seqs.length === 0) return ` ${about}, but recall found nothing to bring back.`
  const best = recall.hits[0]
  const match = best === undefined ? '' : `; the best match is #${best.seq} (matched ${best.terms.join(', ')})`
  return ` ${about}: recall brings ${recall.seqs.length} older ${recall.seqs.length === 1 ? 'entry' : 'entries'} back into the next call${match}.`
}

/**
 * Appends a few hundred realistic turns in one transaction (all or nothing), then says what the
 * next call now leaves out, and what recall brings back for the last question. The session
 * summarizes before the next send (or on "Compact now").
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
  const thread = await threads.load(threadId)
  const { meta } = project({
    thread,
    policy,
    counter,
    tools,
    recall: recallIndexFor(threadId, createRecallIndex),
    ...(memory === undefined ? {} : { memory }),
  })
  const left = meta.dropped.filter((range) => range.reason !== 'applied').reduce((total, range) => total + range.toSeq - range.fromSeq + 1, 0)
  return left === 0
    ? `${added} All of it fits this policy's window.${recallSentence(meta)}`
    : `${added} ${left} entries are now outside the context (greyed): send a message and the session summarizes them first, or press Compact now.${recallSentence(meta)}`
}
