/**
 * @threadlens/store/attachments: images and files kept once (by SHA-256) beside the threads that
 * use them: stored, read back for a request, exported and imported with their threads.
 */

export type { AttachmentInfo, AttachmentStore, PutAttachmentOptions } from '../attachments/attachment-store'
export { attachmentIdOf, filePart, imagePart, maxAttachmentBytes, bytesToBase64, base64ToBytes } from '../attachments/attachment-store'
export { createAttachmentStore } from '../backends/indexeddb/create-attachment-store'
export { createMemoryAttachmentStore } from '../backends/in-memory/attachment-store'
export type { AttachmentLine } from '../transfer/thread-file-format'
export { InvalidAttachmentError } from '../errors'
