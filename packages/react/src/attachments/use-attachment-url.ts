import { useEffect, useState } from 'react'

/**
 * An object URL for a stored image or file, to show it (`<img src>`), revoked when the component
 * unmounts or the id changes. `load` reads the bytes (e.g. `stores.attachments.get`); keep it
 * stable (a module function or `useCallback`), since a new one loads again. `undefined` until the
 * bytes are there, and for an `undefined` id or bytes that are not stored.
 */
export function useAttachmentURL(
  attachmentId: string | undefined,
  load: ((id: string) => Promise<Blob | undefined>) | undefined,
): string | undefined {
  const [url, setURL] = useState<string | undefined>(undefined)
  useEffect(() => {
    setURL(undefined)
    if (attachmentId === undefined || load === undefined) return
    let objectURL: string | undefined
    let live = true
    void load(attachmentId).then((blob) => {
      if (!live || blob === undefined) return
      objectURL = URL.createObjectURL(blob)
      setURL(objectURL)
    })
    return () => {
      live = false
      if (objectURL !== undefined) URL.revokeObjectURL(objectURL)
    }
  }, [attachmentId, load])
  return url
}
