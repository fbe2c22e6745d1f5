import { ThreadlensError } from '@threadlens/core'

/** `send` or `resume` while this session is already running a request. */
export class SessionBusyError extends ThreadlensError {
  static override readonly errorName: string = 'SessionBusyError'
  constructor() {
    super('This session is already running a request: wait for it to finish or call abort() first.')
  }
}

/** Another tab (or window) is driving this thread right now; this one can only watch. */
export class ThreadBusyError extends ThreadlensError {
  static override readonly errorName: string = 'ThreadBusyError'
  readonly threadId: string
  constructor(threadId: string) {
    super(`Thread ${threadId} is being driven by another tab: its updates show here live; send again when it is done.`)
    this.threadId = threadId
  }
}
