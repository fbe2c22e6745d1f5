import { toOpenAIChat, type ProjectionResult } from '@threadlens/core'
import { useMemo } from 'react'
import { readableRequest, storeHeldAttachments, viewFormatOptions } from '../view-models/request-format'
import { AttachmentsLeftOut } from './attachments-left-out'
import { CopyButton } from './copy-button'

/** "copy as OpenAI JSON" for a replayed request; store-held images and files are left out, and it says so. */
export function CopyRequest({ result }: { readonly result: ProjectionResult }) {
  const attachments = useMemo(() => storeHeldAttachments(result), [result])
  const json = useMemo(
    () => readableRequest(JSON.stringify({ messages: toOpenAIChat(result, viewFormatOptions) }, null, 2), attachments.ids),
    [result, attachments],
  )
  return (
    <>
      <CopyButton text={json} label="copy as OpenAI JSON" />
      <AttachmentsLeftOut images={attachments.images} files={attachments.files} />
    </>
  )
}
