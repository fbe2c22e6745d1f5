/** A line of text the user can dismiss: a toast over the chat, a notice above the conversation. */
export function DismissibleLine({
  className,
  role,
  testId,
  text,
  onDismiss,
}: {
  readonly className: string
  readonly role: 'alert' | 'status'
  readonly testId: string
  readonly text: string
  onDismiss(): void
}) {
  return (
    <p className={className} role={role} data-testid={testId}>
      {text}{' '}
      <button type="button" className="chat-link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  )
}
