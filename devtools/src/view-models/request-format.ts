import type { ProjectionResult } from '@threadlens/core'
import type { FormatOptions } from '@threadlens/core/parts'

// The panel formats requests (OpenAI chat, Anthropic messages) to show them, to copy them and to
// predict the prompt cache, but it does not hold the bytes of images and files the app's store
// keeps: the app loads those when it sends. Each such part is formatted with a stand-in instead,
// valid base64 that reads "[bytes of sha256-… left out]" (so a text file decodes to that sentence),
// and the shown JSON has the stand-in replaced by the sentence itself. The attachment id is the
// SHA-256 of the bytes, so the stand-in is the same exactly when the bytes are: cache predictions
// compare prefixes as they would with the bytes.

function leftOutText(id: string): string {
  return `[bytes of ${id} left out]`
}

function standIn(id: string): string {
  // Attachment ids are ASCII (`sha256-<hex>`): btoa takes them as they are.
  return btoa(leftOutText(id))
}

/** Format options for views of a request: every store-held image or file gets the stand-in. */
export const viewFormatOptions: FormatOptions = { attachmentData: standIn }

/** The store-held images and files of what a projection sends: their ids, and how many of each. */
export function storeHeldAttachments(result: ProjectionResult): { readonly ids: readonly string[]; readonly images: number; readonly files: number } {
  const ids = new Set<string>()
  let images = 0
  let files = 0
  for (const message of result.messages) {
    if (message.role === 'tool') continue
    for (const part of message.parts ?? []) {
      if (part.type === 'text' || part.source.type !== 'attachment') continue
      ids.add(part.source.id)
      if (part.type === 'image') images++
      else files++
    }
  }
  return { ids: [...ids], images, files }
}

/** Formatted request text with each stand-in replaced by the sentence it encodes. */
export function readableRequest(text: string, ids: readonly string[]): string {
  let readable = text
  for (const id of ids) readable = readable.split(standIn(id)).join(leftOutText(id))
  return readable
}

/** What a request view says when it shows images or files without their bytes; `undefined` when it shows none. */
export function leftOutNote({ images, files }: { readonly images: number; readonly files: number }): string | undefined {
  if (images + files === 0) return undefined
  const named = [images === 0 ? '' : `${images} image${images === 1 ? '' : 's'}`, files === 0 ? '' : `${files} file${files === 1 ? '' : 's'}`]
    .filter((part) => part !== '')
    .join(' and ')
  const one = images + files === 1
  return `${named} ${one ? 'is' : 'are'} shown without ${one ? 'its' : 'their'} bytes: the app sends ${one ? 'it' : 'them'} from its attachment store.`
}
