import { useId, type FormEvent, type KeyboardEvent } from 'react'
import { COMPOSER_INPUT_ID } from '../skip-links'
import { AttachmentTray } from './attachment-tray'
import type { DraftAttachment } from './draft-attachments'

export interface ComposerProps {
  readonly draft: string
  onDraft(text: string): void
  onSend(text: string): void
  onStop(): void
  /** A request of this tab runs (or waits for another tab): Stop instead of Send. */
  readonly running: boolean
  readonly disabled: boolean
  /** Images and files to send with the message. Default: none (and no attach button). */
  readonly attachments?: readonly DraftAttachment[]
  onAttach?(files: readonly File[]): void
  onRemoveAttachment?(key: number): void
  /** The message box got focus: a chance to load what sending needs before the first send. */
  onFocus?(): void
}

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({
  draft,
  onDraft,
  onSend,
  onStop,
  running,
  disabled,
  attachments = [],
  onAttach,
  onRemoveAttachment,
  onFocus,
}: ComposerProps) {
  const hintId = useId()
  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    const text = draft.trim()
    if ((text === '' && attachments.length === 0) || running || disabled) return
    onSend(text)
  }
  // Pasted screenshots and dropped files join the draft; pasted text stays the browser's business.
  const attachFrom = (event: { preventDefault(): void }, files: FileList) => {
    if (onAttach === undefined || files.length === 0) return
    event.preventDefault()
    onAttach([...files])
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }
  return (
    <form
      className="chat-composer"
      onSubmit={submit}
      aria-label="Send a message"
      onDragOver={(event) => onAttach !== undefined && event.preventDefault()}
      onDrop={(event) => attachFrom(event, event.dataTransfer.files)}
    >
      <AttachmentTray attachments={attachments} onRemove={(key) => onRemoveAttachment?.(key)} />
      <label className="chat-visually-hidden" htmlFor={COMPOSER_INPUT_ID}>
        Message
      </label>
      <textarea
        id={COMPOSER_INPUT_ID}
        className="chat-input"
        value={draft}
        onChange={(event) => onDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onPaste={(event) => attachFrom(event, event.clipboardData.files)}
        rows={2}
        placeholder="Ask something, or try /error"
        aria-describedby={hintId}
        disabled={disabled}
      />
      <span id={hintId} className="chat-visually-hidden">
        Enter sends, Shift+Enter adds a line.{onAttach === undefined ? '' : ' Paste or drop images and files to attach them.'}
      </span>
      {onAttach === undefined ? null : <AttachButton disabled={disabled} onAttach={onAttach} />}
      {running ? (
        <button type="button" className="chat-button chat-button--danger" onClick={onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" className="chat-button chat-button--primary" disabled={disabled || (draft.trim() === '' && attachments.length === 0)}>
          Send
        </button>
      )}
    </form>
  )
}

/** The file picker behind the Attach button; it is emptied after each pick so the same file can be picked again. */
function AttachButton({ disabled, onAttach }: { readonly disabled: boolean; onAttach(files: readonly File[]): void }) {
  return (
    <label className="chat-button chat-attach-button">
      Attach
      <input
        type="file"
        className="chat-visually-hidden"
        aria-label="Attach images or files"
        multiple
        accept="image/*,application/pdf,text/*"
        disabled={disabled}
        onChange={(event) => {
          onAttach([...(event.target.files ?? [])])
          event.target.value = ''
        }}
      />
    </label>
  )
}
