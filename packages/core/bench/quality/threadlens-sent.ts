import { project, type ContextPolicy, type ProjectionResult, type Thread, type TokenCounter } from '../../src/index'
import { countOrphans, projectedPairing } from '../orphans'
import type { RecallSearcher } from './recall-loader'
import type { Sent } from './sent'

// A threadlens projection for one question, read back as what it sent. An entry counts as sent
// verbatim when a message outside the summary carries it unshortened (a masked, pruned or deduped
// tool result is present in name only).

export function sentByThreadlens(result: ProjectionResult, ms: number): Sent {
  const verbatim = new Set<number>()
  const summary: string[] = []
  const text: string[] = []
  result.messages.forEach((message, position) => {
    const info = result.meta.messages[position]
    if (info === undefined || info.segment === 'pending') return
    text.push(message.content)
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) text.push(`${call.name} ${JSON.stringify(call.arguments)}`)
    if (info.segment === 'summary') summary.push(message.content)
    else if (info.reduced === undefined) for (const seq of info.seqs) verbatim.add(seq)
  })
  // Read loosely: `meta.recall` exists only once the recall change is in core.
  const recall = (result.meta as { readonly recall?: { readonly tokens: number; readonly skipped: string | undefined } }).recall
  return {
    verbatim,
    summary: summary.join('\n'),
    text: text.join('\n'),
    tokens: result.meta.tokens.total,
    invalid: countOrphans(result.messages.map(projectedPairing)) > 0,
    ms,
    ...(recall === undefined ? {} : { recall: { tokens: recall.tokens, skipped: recall.skipped } }),
  }
}

export function projectQuestion(thread: Thread, policy: ContextPolicy, counter: TokenCounter, question: string, recall?: RecallSearcher): Sent {
  // `recall` is not in ProjectInput until the recall subpath lands; passed through untyped until then.
  const input = { thread, policy, counter, pending: [{ role: 'user' as const, content: question }], ...(recall === undefined ? {} : { recall }) }
  const started = performance.now()
  const result = project(input as Parameters<typeof project>[0])
  return sentByThreadlens(result, performance.now() - started)
}
