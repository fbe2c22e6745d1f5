import { parseDataUrl } from '@threadlens/core/parts'
import { attachmentReference, parseAttachmentReference } from './attachment-reference'
import { base64ToBytes, bytesToBase64, type AttachmentInfo, type AttachmentStore } from '@threadlens/store/attachments'
import type { UIMessage } from 'ai'

// With an attachment store, the bytes of a `data:` file part are kept once in the store
// (content-addressed); the stored UI message holds a reference in their place, which `load` turns
// back into the same `data:` URL.

/**
 * The bytes of a base64 `data:` URL, when writing them back as base64 gives the same URL (the
 * reference must load back exactly); `undefined` otherwise (the URL then stays inline).
 */
export function dataUrlBlob(url: string): { header: string; blob: Blob } | undefined {
  const parsed = parseDataUrl(url)
  if (parsed === undefined) return undefined
  let bytes: Uint8Array
  try {
    bytes = base64ToBytes(parsed.data)
  } catch {
    return undefined
  }
  if (bytesToBase64(bytes) !== parsed.data) return undefined
  return { header: url.slice(0, url.length - parsed.data.length), blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: parsed.mediaType }) }
}

/** `message` as stored: its file parts' `data:` URLs replaced by references where `referenceFor` has one. */
export function toStoredForm(message: UIMessage, referenceFor: (url: string) => string | undefined): UIMessage {
  if (!message.parts.some((part) => part.type === 'file' && referenceFor(part.url) !== undefined)) return message
  return { ...message, parts: message.parts.map((part) => (part.type === 'file' ? { ...part, url: referenceFor(part.url) ?? part.url } : part)) }
}

/** The messages with every attachment reference turned back into its `data:` URL (a reference whose bytes are gone stays as it is). */
async function resolveReferences(messages: UIMessage[], attachments: AttachmentStore): Promise<UIMessage[]> {
  const cache = new Map<string, Promise<string | undefined>>()
  const resolve = (url: string): Promise<string | undefined> => {
    let found = cache.get(url)
    if (found === undefined) {
      const reference = parseAttachmentReference(url)
      found =
        reference === undefined
          ? Promise.resolve(undefined)
          : attachments
              .get(reference.id)
              .then(async (blob) => (blob === undefined ? undefined : reference.header + bytesToBase64(new Uint8Array(await blob.arrayBuffer()))))
      cache.set(url, found)
    }
    return found
  }
  return Promise.all(
    messages.map(async (message) => {
      if (!message.parts.some((part) => part.type === 'file' && parseAttachmentReference(part.url) !== undefined)) return message
      const parts = await Promise.all(
        message.parts.map(async (part) => (part.type === 'file' ? { ...part, url: (await resolve(part.url)) ?? part.url } : part)),
      )
      return { ...message, parts }
    }),
  )
}

/** What a chat does with its files when it has an attachment store (`createChatPersistence({ attachments })`); loaded only then. */
export interface FileKeeper {
  /** The messages with every attachment reference turned back into its `data:` URL. */
  resolve(messages: UIMessage[]): Promise<UIMessage[]>
  /** Stores the files' bytes of `messages` for `threadId` and returns the messages as they are kept (references, not bytes). */
  storedForms(threadId: string, messages: readonly UIMessage[]): Promise<UIMessage[]>
  /** A new branch holds the files its messages reference (put again: the bytes are not stored twice). */
  keepFor(threadId: string, messages: readonly UIMessage[]): Promise<void>
}

export function fileKeeper(store: AttachmentStore | PromiseLike<AttachmentStore>): FileKeeper {
  const attachmentsPromise = Promise.resolve(store)
  const attachments = async (): Promise<AttachmentStore> => attachmentsPromise
  /** The attachment each `data:` URL's bytes were stored as, by URL (the same file is hashed once per page). */
  const storedFiles = new Map<string, { info: AttachmentInfo; header: string; blob: Blob } | null>()
  return {
    resolve: async (messages) => resolveReferences(messages, await attachments()),
    async storedForms(threadId, messages) {
      const kept = await attachments()
      for (const message of messages) {
        for (const part of message.parts) {
          if (part.type !== 'file' || !part.url.startsWith('data:') || storedFiles.has(part.url)) continue
          const file = dataUrlBlob(part.url)
          storedFiles.set(part.url, file === undefined ? null : { ...file, info: await kept.put(threadId, file.blob, { mediaType: file.blob.type }) })
        }
      }
      const referenceFor = (url: string): string | undefined => {
        const file = storedFiles.get(url)
        return file === undefined || file === null ? undefined : attachmentReference(file.info, file.header)
      }
      return messages.map((message) => toStoredForm(message, referenceFor))
    },
    async keepFor(threadId, messages) {
      const kept = await attachments()
      const ids = new Set(
        messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'file' ? (parseAttachmentReference(part.url)?.id ?? []) : []))),
      )
      for (const file of storedFiles.values())
        if (file !== null && ids.has(file.info.id)) await kept.put(threadId, file.blob, { mediaType: file.blob.type })
    },
  }
}
