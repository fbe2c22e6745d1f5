import type { JsonObject, JsonValue } from '@threadlens/core'
import type { ContentPart, MediaSource } from '@threadlens/core/parts'
import type { UIMessage } from 'ai'
import { parseAttachmentReference } from './attachment-reference'
import { UnstorableMessageError } from './errors'

// A UI message's parts as entry payloads: plain JSON checked as the store checks it, tool parts'
// names and arguments, and a user message's files as core content parts.

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

/** JSON copy without `undefined` members; refuses what the entry schema would refuse. */
export function toJson(messageId: string, value: unknown, path: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnstorableMessageError(messageId, `${path} is ${value}; only finite numbers can be stored`)
    return value
  }
  if (Array.isArray(value)) return value.map((item, index) => (item === undefined ? null : toJson(messageId, item, `${path}[${index}]`)))
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value)
    if (prototype !== Object.prototype && prototype !== null) {
      throw new UnstorableMessageError(
        messageId,
        `${path} is a ${prototype?.constructor?.name ?? 'non-plain object'}; store plain JSON objects (convert dates to strings)`,
      )
    }
    const result: Record<string, JsonValue> = {}
    for (const [key, item] of Object.entries(value)) {
      if (forbiddenKeys.has(key)) throw new UnstorableMessageError(messageId, `${path} has the key "${key}", which the store refuses; rename it`)
      if (item === undefined) continue
      result[key] = toJson(messageId, item, `${path}.${key}`)
    }
    return result
  }
  throw new UnstorableMessageError(messageId, `${path} is a ${typeof value}; only JSON can be stored`)
}

export function isToolPart(part: { type: string }): part is ToolPartLike {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-')
}

export interface ToolPartLike {
  readonly type: string
  readonly toolName?: string
  readonly toolCallId: string
  readonly state: string
  readonly input?: unknown
  readonly output?: unknown
  readonly errorText?: string
  readonly approval?: { readonly approved?: boolean; readonly reason?: string }
}

export function toolName(part: ToolPartLike): string {
  return part.type === 'dynamic-tool' ? (part.toolName ?? 'tool') : part.type.slice('tool-'.length)
}

/** What the model is told a denied call returned. */
export function deniedResultText(reason: string | undefined): string {
  return reason === undefined || reason === '' ? 'The user denied this tool call.' : `The user denied this tool call: ${reason}`
}

export function toolArguments(messageId: string, input: unknown, path: string): JsonObject {
  if (input === undefined) return {}
  const json = toJson(messageId, input, path)
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) return json as JsonObject
  return { input: json }
}

/** A file part's URL the model can be sent: `https:`, `http:`, `data:` or bytes in the attachment store (a `blob:` URL lives only in its page). */
function sendableFileUrl(url: string): boolean {
  return /^(https?:|data:)/i.test(url) || parseAttachmentReference(url) !== undefined
}

/**
 * A user message's text and files as core content parts, in order, when it has files the model can
 * be sent: images and files are then counted (attachment tokens) and projected like any other.
 * Core's image or file part holds the URL (or the store's attachment); the media type and file name
 * stay on the UI part.
 */
export function userContentParts(parts: UIMessage['parts']): ContentPart[] | undefined {
  if (!parts.some((part) => part.type === 'file' && sendableFileUrl(part.url))) return undefined
  return parts.flatMap((part): ContentPart[] => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }]
    if (part.type !== 'file' || !sendableFileUrl(part.url)) return []
    const reference = parseAttachmentReference(part.url)
    const source: MediaSource =
      reference === undefined
        ? { type: 'url', url: part.url }
        : { type: 'attachment', id: reference.id, mediaType: reference.mediaType, bytes: reference.bytes }
    if (part.mediaType.startsWith('image/')) return [{ type: 'image', source }]
    const filename = part.filename !== undefined && part.filename.length >= 1 && part.filename.length <= 1024 ? part.filename : undefined
    return [{ type: 'file', source, ...(filename === undefined ? {} : { filename }) }]
  })
}
