import type { ProjectionResult } from '@threadlens/core'
import type { ContentPart } from '@threadlens/core/parts'

/**
 * What the offline model says about the images and files of the user's latest message, from what
 * its projection holds (so an image a policy left out is not seen): `undefined` when there are none.
 */
export function attachmentMention(projection: ProjectionResult): string | undefined {
  const latest = [...projection.messages].reverse().find((message) => message.role === 'user')
  const media = (latest?.parts ?? []).filter((part): part is Exclude<ContentPart, { type: 'text' }> => part.type !== 'text')
  if (media.length === 0) return undefined
  const described = media.map((part) => {
    if (part.type === 'image')
      return part.width === undefined || part.height === undefined ? 'an image' : `an image of ${part.width}×${part.height} pixels`
    return part.filename === undefined ? 'a file' : `a file named “${part.filename}”`
  })
  const list = described.length === 1 ? described[0] : `${described.slice(0, -1).join(', ')} and ${described.at(-1)}`
  return `I received ${list} (the offline model cannot look inside them, but a real model gets them with this message).`
}
