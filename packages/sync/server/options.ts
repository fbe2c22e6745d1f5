// What the in-process server, the CLI and the child-process wrapper share: the error type, the
// defaults and the line the CLI prints once it is ready.
import { ThreadlensError } from '@threadlens/core'

export type SyncServerErrorCode = 'invalid-option' | 'start-failed' | 'timeout' | 'exited'

/** A sync server could not be configured, started, reached or stopped; `code` says which. */
export class SyncServerError extends ThreadlensError {
  static override readonly errorName: string = 'SyncServerError'
  readonly code: SyncServerErrorCode
  constructor(code: SyncServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}

export const defaultSyncServerPort = 4437
/** The start of the line the CLI (./main.ts) prints, followed by the base URL, once it accepts connections. */
export const readyLinePrefix = 'threadlens sync server: '

/** The port as an integer in 0..65535, or a SyncServerError naming where it came from. */
export function checkPort(port: unknown, source: string): number {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SyncServerError('invalid-option', `${source} must be an integer from 0 to 65535, got ${JSON.stringify(port)}`)
  }
  return port
}
