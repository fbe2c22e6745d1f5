import type { ContentPart } from '@threadlens/core/parts'
import { type AttachmentStore, filePart, imagePart } from '@threadlens/store/attachments'

/** An image's pixel size, read by the browser's decoder; `undefined` when it cannot decode it. */
async function imageSize(file: File): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file)
    const size = { width: bitmap.width, height: bitmap.height }
    bitmap.close()
    return size
  } catch {
    return undefined
  }
}

/** Stores the draft's files for the thread and returns the parts that reference them, in order. */
export async function attachmentParts(store: AttachmentStore, threadId: string, files: readonly File[]): Promise<ContentPart[]> {
  const parts: ContentPart[] = []
  for (const file of files) {
    if (file.type.startsWith('image/')) {
      const size = await imageSize(file)
      parts.push(imagePart(await store.put(threadId, file, size ?? {})))
    } else {
      parts.push(filePart(await store.put(threadId, file), file.name === '' ? undefined : file.name))
    }
  }
  return parts
}
