import { useCallback, useEffect, useRef, useState } from 'react'

/** A file picked, pasted or dropped into the composer, not sent yet. */
export interface DraftAttachment {
  readonly key: number
  readonly file: File
  /** An object URL for an image's thumbnail (revoked when the attachment leaves the draft); `undefined` for other files. */
  readonly previewURL: string | undefined
}

/** Images and these document types go to the model; anything else is refused with a notice. */
export function acceptedFile(file: File): boolean {
  return file.type.startsWith('image/') || file.type === 'application/pdf' || file.type.startsWith('text/')
}

/** The composer's attachments, with their thumbnails' object URLs released when they go. */
export function useDraftAttachments() {
  const [attachments, setAttachments] = useState<readonly DraftAttachment[]>([])
  const next = useRef(0)
  const live = useRef(attachments)
  live.current = attachments
  useEffect(
    () => () => {
      for (const attachment of live.current) if (attachment.previewURL !== undefined) URL.revokeObjectURL(attachment.previewURL)
    },
    [],
  )
  const add = useCallback((files: readonly File[]): readonly File[] => {
    const accepted = files.filter(acceptedFile)
    setAttachments((previous) => [
      ...previous,
      ...accepted.map((file) => ({ key: next.current++, file, previewURL: file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined })),
    ])
    return files.filter((file) => !acceptedFile(file))
  }, [])
  const remove = useCallback((key: number) => {
    setAttachments((previous) => {
      const gone = previous.find((attachment) => attachment.key === key)
      if (gone?.previewURL !== undefined) URL.revokeObjectURL(gone.previewURL)
      return previous.filter((attachment) => attachment.key !== key)
    })
  }, [])
  const clear = useCallback(() => {
    setAttachments((previous) => {
      for (const attachment of previous) if (attachment.previewURL !== undefined) URL.revokeObjectURL(attachment.previewURL)
      return []
    })
  }, [])
  return { attachments, add, remove, clear }
}
