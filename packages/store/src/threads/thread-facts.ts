import { array, int, nullable, object, type Reader, type ThreadFacts } from '@threadlens/core/internal'

// The facts and their fold are the projector's (core's `ThreadFacts`, `foldThreadFacts`); the store
// keeps them on the thread's row, updated in the same transaction as every append, and checks them
// with this reader when it reads the row back.
const seq = int({ min: -1 })

export const threadFactsReader: Reader<ThreadFacts> = object<ThreadFacts>({
  resetSeq: seq,
  lastUserSeq: seq,
  summary: nullable(object({ seq, fromSeq: seq, toSeq: seq })),
  pinnedSeqs: array(int({ min: 0 })),
})
