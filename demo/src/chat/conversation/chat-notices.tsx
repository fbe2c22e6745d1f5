import { DismissibleLine } from '../dismissible-line'

export interface ChatNoticesProps {
  readonly phase: 'idle' | 'running' | 'waiting'
  readonly error: { readonly name: string; readonly message: string } | undefined
  readonly notice: string | undefined
  readonly projectionError: unknown
  onDismiss(): void
}

/** What the chat says besides messages: another tab driving, a failed call, a summary written. */
export function ChatNotices({ phase, error, notice, projectionError, onDismiss }: ChatNoticesProps) {
  return (
    <div className="chat-notices">
      {phase === 'waiting' ? (
        <p className="chat-notice chat-notice--busy" role="status" data-testid="busy-notice">
          Busy: another tab is driving this chat. Its reply shows here live; your message is sent as soon as it is done.
        </p>
      ) : null}
      {error === undefined ? null : (
        <div className="chat-notice chat-notice--error" role="alert" data-testid="chat-error">
          <strong>The model call failed</strong> ({error.name}): {error.message} The chat is intact: everything before the failure is saved.
          <button type="button" className="chat-link-button" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
      {projectionError === undefined ? null : (
        <p className="chat-notice chat-notice--error" role="alert">
          The context could not be projected: {projectionError instanceof Error ? projectionError.message : String(projectionError)}
        </p>
      )}
      {notice === undefined ? null : (
        <DismissibleLine className="chat-notice" role="status" testId="chat-notice" text={notice} onDismiss={onDismiss} />
      )}
    </div>
  )
}
