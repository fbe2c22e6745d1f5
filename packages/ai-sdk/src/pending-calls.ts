import type { CallRecord } from '@threadlens/core'

/**
 * The record of the chat's latest call whose reply is not stored yet, kept in a `Storage` (the
 * tab's `sessionStorage`) so that a page reloaded mid-answer, which resumes the reply, can still
 * store the call's record with it. One per chat: a new call's record replaces the last one (a reply
 * that never came leaves nothing behind). Storage that is missing, full or refusing is skipped: the
 * record then lives only in this page.
 */
export interface PendingCalls {
  get(callId: string): CallRecord | undefined
  set(callId: string, record: CallRecord): void
  remove(callId: string): void
}

function defaultStorage(): Storage | undefined {
  try {
    return (globalThis as { sessionStorage?: Storage }).sessionStorage
  } catch {
    return undefined // a sandboxed frame throws on access
  }
}

export function pendingCallStore(storage: Storage | undefined, chatId: string): PendingCalls {
  const store = storage ?? defaultStorage()
  const key = `threadlens-ai-sdk:${chatId}:pending-call`
  return {
    get(callId) {
      try {
        const text = store?.getItem(key)
        if (text === null || text === undefined) return undefined
        const pending = JSON.parse(text) as { callId?: unknown; record?: { model?: unknown } } | null
        return pending?.callId === callId && typeof pending.record?.model === 'string' ? (pending.record as CallRecord) : undefined
      } catch {
        return undefined
      }
    },
    set(callId, record) {
      try {
        store?.setItem(key, JSON.stringify({ callId, record }))
      } catch {
        // full or refused: the record stays in this page only
      }
    },
    remove(callId) {
      try {
        if (this.get(callId) !== undefined) store?.removeItem(key)
      } catch {
        // nothing to clean
      }
    },
  }
}
