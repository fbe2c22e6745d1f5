import { callRecordReader } from '../entries/entry-readers'
import { int, object, oneOf, optional, string, type Reader } from '../validation/readers'
import { maxAttemptErrorLength, type CallAttempt, type CallAttemptError } from './call-record'

const refText = string({ min: 1, max: 256 })

/** Checks an attempt read from the store's attempts log (or an import). */
export const callAttemptReader: Reader<CallAttempt> = object<CallAttempt>({
  id: string({ min: 1, max: 300 }),
  threadId: refText,
  callId: refText,
  requestId: optional(refText),
  attempt: int({ above: 0, max: 1_000 }),
  status: oneOf(['retried', 'failed', 'aborted']),
  record: callRecordReader,
  error: optional(
    object<CallAttemptError>({
      name: string({ min: 1, max: 128 }),
      message: string({ max: maxAttemptErrorLength }),
      status: optional(int({ min: 100, max: 599 })),
    }),
  ),
})
