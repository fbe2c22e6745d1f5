import type { ContextPolicy } from '@threadlens/core'
import type { RecallIndex, RecallSearcher } from '@threadlens/core/recall'
import { useEffect, useState } from 'react'
import { lazyModule, onFirstInteraction } from '../view-models/lazy-module'

/** The recall code, loaded on first need (a panel whose policies never recall does not download it). */
const recallCode = lazyModule(() => import('@threadlens/core/recall'))

/** A fresh index, when the recall code has loaded (for a projection of part of a thread, which must not share the thread's index). */
export function freshRecallIndex(): RecallIndex | undefined {
  return recallCode.loaded?.createRecallIndex()
}

/**
 * One recall index per thread, so a policy with recall (the app's, or one tried in the lab) is
 * projected as the app projects it: `given` (the app's own index) when there is one, else the
 * panel's, restored from the terms `threads` keeps beside the entries (made from the entries when
 * that fails). The panel's code loads once one of `policies` recalls, at the visitor's first
 * interaction with the page; until then, and until it is restored, this is `undefined`, and a
 * projection says recall was skipped for want of an index.
 */
export function useRecallIndex(
  threadId: string | undefined,
  given: RecallSearcher | undefined,
  policies: readonly (ContextPolicy | undefined)[],
  threads: { recallIndex(threadId: string): Promise<RecallIndex> } | undefined,
): RecallSearcher | undefined {
  const wanted = given === undefined && policies.some((policy) => policy?.recall !== undefined)
  const [module, setModule] = useState(recallCode.loaded)
  useEffect(() => {
    if (!wanted || module !== undefined) return undefined
    let current = true
    const load = () =>
      void recallCode.load().then(
        (value) => current && setModule(() => value),
        () => undefined,
      )
    const cancel = onFirstInteraction(load)
    return () => {
      current = false
      cancel()
    }
  }, [wanted, module])
  const [own, setOwn] = useState<{ readonly threadId: string; readonly index: RecallIndex }>()
  useEffect(() => {
    if (threadId === undefined || module === undefined) return undefined
    let current = true
    const made = (): RecallIndex => module.createRecallIndex()
    const restored = threads === undefined ? Promise.resolve(made()) : threads.recallIndex(threadId).catch(made)
    void restored.then((index) => current && setOwn({ threadId, index }))
    return () => {
      current = false
    }
  }, [threadId, module, threads])
  return given ?? (own !== undefined && own.threadId === threadId ? own.index : undefined)
}
