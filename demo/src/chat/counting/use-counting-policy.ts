import { withPolicy, type ContextPolicy } from '@threadlens/core'
import { loadedTokenCounter } from '@threadlens/core/internal'
import { useTokenCounter } from '@threadlens/react'
import { useMemo } from 'react'
import { useFirstInteraction } from './first-interaction'

/**
 * The policy the page counts with. An exact encoding is a download of about 1 MB gzip (o200k_base),
 * more than the whole chat: it waits for the visitor's first interaction. Until its counter is
 * ready the chat counts with the heuristic, which the meter marks as estimated
 * (`meta.counter.exact` is false), and switches to exact counts once it is. Sending always uses
 * the policy itself: the session loads its counter when it first runs.
 */
export function useCountingPolicy(policy: ContextPolicy): ContextPolicy {
  const interacted = useFirstInteraction()
  const exact = useTokenCounter(interacted && policy.tokenizer !== 'heuristic' ? policy.tokenizer : undefined)
  const estimated = useMemo(() => (policy.tokenizer === 'heuristic' ? policy : withPolicy(policy, { tokenizer: 'heuristic' })), [policy])
  // Already loaded (another view of this page counted with it): nothing to wait for.
  const ready = exact?.status === 'ready' || loadedTokenCounter(policy.tokenizer) !== undefined
  return policy.tokenizer === 'heuristic' || ready ? policy : estimated
}
