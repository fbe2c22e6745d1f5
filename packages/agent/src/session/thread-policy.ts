import { definePolicy, InvalidPolicyError, type ContextPolicy } from '@threadlens/core'
import { jsonObject, read } from '@threadlens/core/internal'
import type { ThreadRecord } from '@threadlens/store'

/** Where a thread keeps its own policy, as the issues of a bad one name it. */
const FIELD = 'metadata.policy'

/**
 * The policy a thread keeps in its record's `metadata.policy` (policy options, as `definePolicy`
 * takes them), validated and completed with the defaults; `undefined` when the thread keeps none
 * (absent or `null`). A stored value that is not a valid policy throws `InvalidPolicyError`, its
 * issues named from `metadata.policy`: sending under some other policy instead would change the
 * budget or the system prompt without a word. Fix it with `threads.update(id, { metadata })`.
 *
 * The object is checked here with core's JSON-object reader; its fields by `definePolicy`, the one
 * owner of the policy's rules.
 */
export function threadPolicyOf(record: Pick<ThreadRecord, 'metadata'> | undefined): ContextPolicy | undefined {
  const stored = record?.metadata['policy']
  if (stored === undefined || stored === null) return undefined
  const options = read(jsonObject, stored)
  if (!options.ok) {
    const kind = Array.isArray(stored) ? 'an array' : typeof stored
    throw new InvalidPolicyError([{ path: FIELD, message: `must be an object of policy options (what definePolicy takes), not ${kind}` }], {
      cause: options.problem,
    })
  }
  try {
    return definePolicy(options.value)
  } catch (error) {
    if (!InvalidPolicyError.isInstance(error)) throw error
    const issues = error.issues.map((issue) => ({ path: issue.path === '' ? FIELD : `${FIELD}.${issue.path}`, message: issue.message }))
    throw new InvalidPolicyError(issues, { cause: error })
  }
}
