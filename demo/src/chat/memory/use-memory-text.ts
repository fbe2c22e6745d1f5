import { type ContextPolicy, type Memory } from '@threadlens/core'
import { renderMemory } from '@threadlens/core/memory'
import { useTokenCounter } from '@threadlens/react'
import { useMemo } from 'react'

/**
 * The memory segment exactly as the session renders it for a call (core's `renderMemory` over
 * `policy.memorySpaces`, capped at `policy.memoryMaxTokens`), so the page projects what is sent.
 */
export function useMemoryText(memory: Memory | undefined, policy: ContextPolicy): string | undefined {
  const counter = useTokenCounter(policy.tokenizer).counter
  return useMemo(() => {
    if (memory === undefined || counter === undefined) return undefined
    const text = renderMemory(memory, { spaces: policy.memorySpaces, maxTokens: policy.memoryMaxTokens, counter }).text
    return text === '' ? undefined : text
  }, [memory, counter, policy])
}
