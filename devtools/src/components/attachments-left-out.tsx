import { leftOutNote } from '../view-models/request-format'

/** Says plainly that a request view shows store-held images and files without their bytes. */
export function AttachmentsLeftOut({ images, files }: { readonly images: number; readonly files: number }) {
  const note = leftOutNote({ images, files })
  if (note === undefined) return null
  return (
    <p
      className="tl-muted"
      data-testid="attachments-left-out"
      title="The panel does not load attachment bytes; copied JSON carries the same note in their place."
    >
      {note}
    </p>
  )
}
