import type { JsonValue } from '@threadlens/core'

/** Commands the test page sends to a worker "tab". */
export type TabCommand =
  | { readonly type: 'open'; readonly name: string }
  | { readonly type: 'append-sequential'; readonly threadId: string; readonly count: number; readonly label: string }
  | { readonly type: 'append-many'; readonly threadId: string; readonly inputs: readonly unknown[] }
  | { readonly type: 'aborted-append'; readonly threadId: string }
  | { readonly type: 'memory-get'; readonly memoryId: string }
  | { readonly type: 'memory-put'; readonly memoryId: string; readonly key: string; readonly value: JsonValue; readonly expectedRev?: number }
  | { readonly type: 'memory-increment'; readonly memoryId: string; readonly times: number }
  | { readonly type: 'upgrade'; readonly name: string; readonly version: number }
  | { readonly type: 'thread-create'; readonly title: string }
  | { readonly type: 'thread-rename'; readonly threadId: string; readonly title: string; readonly expectedRev?: number }
  | { readonly type: 'record-attempt'; readonly attempt: unknown }
  | { readonly type: 'recall-index'; readonly threadId: string }

/** An error as it crosses from the worker: its name, message and structured fields. */
export interface TabError {
  readonly name: string
  readonly message: string
  readonly [field: string]: unknown
}

export type TabReply =
  { readonly id: number; readonly ok: true; readonly result: unknown } | { readonly id: number; readonly ok: false; readonly error: TabError }

export interface Tab {
  /** Runs a command in the worker; rejects with the worker's error (name and fields kept). */
  send<T = unknown>(command: TabCommand): Promise<T>
  close(): void
}

/** Starts a worker tab. Browser only. */
export function openTab(): Tab {
  const worker = new Worker(new URL('./tab-worker.ts', import.meta.url), { type: 'module' })
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>()
  let next = 0
  worker.onmessage = (event: MessageEvent<TabReply>) => {
    const reply = event.data
    const pending = waiting.get(reply.id)
    waiting.delete(reply.id)
    if (reply.ok) pending?.resolve(reply.result)
    else pending?.reject(Object.assign(new Error(reply.error.message), reply.error))
  }
  return {
    send: <T>(command: TabCommand) =>
      new Promise<T>((resolve, reject) => {
        const id = next++
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject })
        worker.postMessage({ id, command })
      }),
    close: () => worker.terminate(),
  }
}
