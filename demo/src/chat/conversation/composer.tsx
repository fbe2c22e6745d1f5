import { useId, type FormEvent, type KeyboardEvent } from 'react'

export interface ComposerProps {
  readonly draft: string
  onDraft(text: string): void
  onSend(text: string): void
  onStop(): void
  /** A request of this tab runs (or waits for another tab): Stop instead of Send. */
  readonly running: boolean
  readonly disabled: boolean
}

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({ draft, onDraft, onSend, onStop, running, disabled }: ComposerProps) {
  const hintId = useId()
  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    const text = draft.trim()
    if (text === '' || running || disabled) return
    onSend(text)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }
  return (
    <form className="chat-composer" onSubmit={submit} aria-label="Send a message">
      <label className="chat-visually-hidden" htmlFor={`${hintId}-input`}>
        Message
      </label>
      <textarea
        id={`${hintId}-input`}
        className="chat-input"
        value={draft}
        onChange={(event) => onDraft(event.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        placeholder="Ask something, or try /error"
        aria-describedby={hintId}
        disabled={disabled}
      />
      <span id={hintId} className="chat-visually-hidden">
        Enter sends, Shift+Enter adds a line.
      </span>
      {running ? (
        <button type="button" className="chat-button chat-button--danger" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="chat-button chat-button--primary" disabled={disabled || draft.trim() === ''}>
          Send
        </button>
      )}
    </form>
  )
}
