import { type MessageInfo, type ProjectedMessage } from '@threadlens/core'
import { fileTokens, imageTokens, type ContentPart } from '@threadlens/core/parts'
import { useAttachmentURL } from '@threadlens/react'
import { createContext, useContext, type ReactNode } from 'react'
import { formatNumber } from '../view-models/meter-parts'

type LoadAttachment = (id: string) => Promise<Blob | undefined>

const AttachmentLoaderContext = createContext<LoadAttachment | undefined>(undefined)

/**
 * Lets the devtools show thumbnails of store-held images (`stores.attachments.get`). Without it,
 * only images sent inline (`data:image/…`) get a thumbnail; the others show their size and cost.
 */
export function DevtoolsAttachmentLoader({ load, children }: { readonly load: LoadAttachment; readonly children: ReactNode }) {
  return <AttachmentLoaderContext.Provider value={load}>{children}</AttachmentLoaderContext.Provider>
}

type Media = Exclude<ContentPart, { type: 'text' }>

const chipStyle = { display: 'inline-flex', alignItems: 'center', gap: 4, marginRight: 6, fontSize: 11 } as const
const thumbnailStyle = { maxWidth: 48, maxHeight: 36, borderRadius: 3, objectFit: 'cover' } as const

/** A projected message's images and files: a thumbnail or name, and what each costs; images a policy left out are counted. */
export function MessageAttachments({ message, info }: { readonly message: ProjectedMessage; readonly info: MessageInfo | undefined }) {
  const media = message.role === 'tool' ? [] : (message.parts ?? []).filter((part): part is Media => part.type !== 'text')
  const omitted = info?.omittedImages?.length ?? 0
  if (media.length === 0 && omitted === 0) return null
  return (
    <div data-testid="message-attachments" title={`images and files: ${formatNumber(info?.attachmentTokens ?? 0)} tokens of this message`}>
      {media.map((part, position) => (
        <span key={position} style={chipStyle} data-testid="message-attachment">
          {part.type === 'image' ? <ImageThumbnail part={part} /> : <span>{part.filename ?? 'file'}</span>}
          <span className="tl-muted">{formatNumber(part.type === 'image' ? imageTokens(part) : fileTokens(part))} tok</span>
        </span>
      ))}
      {omitted === 0 ? null : (
        <span className="tl-badge tl-warn" data-testid="omitted-images">
          {omitted} older image{omitted === 1 ? '' : 's'} left out
        </span>
      )}
    </div>
  )
}

function ImageThumbnail({ part }: { readonly part: Extract<ContentPart, { type: 'image' }> }) {
  const load = useContext(AttachmentLoaderContext)
  const source = part.source
  const inline = source.type === 'url' && source.url.startsWith('data:image/') ? source.url : undefined
  const url = useAttachmentURL(source.type === 'attachment' ? source.id : undefined, load)
  const label = part.width === undefined || part.height === undefined ? 'image' : `${part.width}×${part.height}`
  // Web addresses are never fetched by the panel: only bytes already here are shown.
  const shown = inline ?? url
  return shown === undefined ? <span>{label}</span> : <img src={shown} alt={label} style={thumbnailStyle} data-testid="attachment-thumbnail" />
}
