import type { ContentPart } from '@threadlens/core/parts'
import { useAttachmentURL } from '@threadlens/react'

export interface MessageAttachmentsProps {
  readonly parts: readonly ContentPart[] | undefined
  /** Reads a stored attachment's bytes (the store's `attachments.get`). */
  loadAttachment(id: string): Promise<Blob | undefined>
}

type Media = Exclude<ContentPart, { type: 'text' }>

/** A message's images as thumbnails (object URLs of the stored bytes, released on unmount) and its files by name. */
export function MessageAttachments({ parts, loadAttachment }: MessageAttachmentsProps) {
  const media = (parts ?? []).filter((part): part is Media => part.type !== 'text')
  if (media.length === 0) return null
  return (
    <ul className="chat-attachments chat-attachments--sent" aria-label="Attachments">
      {media.map((part, position) => (
        <li key={position} className="chat-attachment">
          {part.type === 'image' ? (
            <Thumbnail part={part} loadAttachment={loadAttachment} />
          ) : (
            <span className="chat-attachment-file">{part.filename ?? 'file'}</span>
          )}
        </li>
      ))}
    </ul>
  )
}

function Thumbnail({
  part,
  loadAttachment,
}: {
  readonly part: Extract<ContentPart, { type: 'image' }>
  loadAttachment(id: string): Promise<Blob | undefined>
}) {
  const source = part.source
  const url = useAttachmentURL(source.type === 'attachment' ? source.id : undefined, loadAttachment)
  const label = part.width === undefined || part.height === undefined ? 'image' : `image ${part.width}×${part.height}`
  // Only stored bytes are shown: a web address in a message is not fetched by the page.
  if (url === undefined) return <span className="chat-attachment-file">{label}</span>
  return <img className="chat-attachment-thumbnail" src={url} alt={label} data-testid="message-thumbnail" />
}
