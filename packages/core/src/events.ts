/**
 * Everything threadlens reports as it works, as one discriminated union (`type` is noun-verb),
 * for logs and the devtools.
 */
export type ThreadlensEvent =
  | {
      readonly type: 'compaction-start'
      readonly threadId: string
      readonly fromSeq: number
      readonly toSeq: number
      /** Entries handed to the summarizer (pinned ones and context ops are not). */
      readonly entryCount: number
      readonly tokensBefore: number
    }
  // Repeated on purpose: the fields of a summarized CompactionResult (packages/core/src/compaction/compact.ts), spelled out so the event reads whole.
  | {
      readonly type: 'compaction-end'
      readonly threadId: string
      readonly fromSeq: number
      readonly toSeq: number
      readonly tokensBefore: number
      readonly tokensAfter: number
      readonly summaryTokens: number
    }
  | {
      readonly type: 'compaction-fail'
      readonly threadId: string
      readonly reason: CompactionFailure
      readonly message: string
    }
  | {
      readonly type: 'tool-output-truncate'
      readonly toolName: string
      readonly toolCallId: string | undefined
      readonly truncatedBy: 'lines' | 'bytes'
      readonly totalLines: number
      readonly totalBytes: number
      readonly keptBytes: number
    }

/** Why a summary attempt failed; history is kept in every case. */
export type CompactionFailure = 'summarizer-error' | 'timeout' | 'aborted' | 'empty' | 'too-long'

export type ThreadlensEventType = ThreadlensEvent['type']
