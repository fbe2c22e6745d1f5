import type { DraftAttachment } from './draft-attachments'

export interface AttachmentTrayProps {
  readonly attachments: readonly DraftAttachment[]
  onRemove(key: number): void
}

/** Thumbnails of the draft's images and the names of its files; names are text nodes, never markup. */
export function AttachmentTray({ attachments, onRemove }: AttachmentTrayProps) {
  if (attachments.length === 0) return null
  return (
    <ul className="chat-attachments" aria-label="Attachments to send">
      {attachments.map((attachment) => (
        <li key={attachment.key} className="chat-attachment" data-testid="draft-attachment">
          {attachment.previewURL === undefined ? (
            <span className="chat-attachment-file">{attachment.file.name || attachment.file.type}</span>
          ) : (
            <img className="chat-attachment-thumbnail" src={attachment.previewURL} alt={attachment.file.name || 'pasted image'} />
          )}
          <button
            type="button"
            className="chat-link-button"
            onClick={() => onRemove(attachment.key)}
            aria-label={`Remove ${attachment.file.name || 'attachment'}`}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}
