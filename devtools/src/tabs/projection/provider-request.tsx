import { toAnthropicMessages, toOpenAIChat, type ProjectionResult } from '@threadlens/core'
import { useMemo } from 'react'
import { AttachmentsLeftOut } from '../../components/attachments-left-out'
import { CollapsibleText } from '../../components/collapsible-text'
import { CopyButton } from '../../components/copy-button'
import { COLLAPSE_JSON_AFTER_CHARS } from '../../constants'
import { formatNumber } from '../../view-models/meter-parts'
import { readableRequest, storeHeldAttachments, viewFormatOptions } from '../../view-models/request-format'

/** The next call as the provider's request JSON (OpenAI chat or Anthropic messages). */
export default function ProviderRequest({ result, format }: { readonly result: ProjectionResult; readonly format: 'openai' | 'anthropic' }) {
  // Store-held images and files are shown without their bytes (see request-format).
  const attachments = useMemo(() => storeHeldAttachments(result), [result])
  const openAI = useMemo(() => (format === 'openai' ? toOpenAIChat(result, viewFormatOptions) : undefined), [result, format])
  const json = useMemo(() => {
    if (openAI !== undefined) return readableRequest(JSON.stringify({ messages: openAI }, null, 2), attachments.ids)
    if (format === 'anthropic') return readableRequest(JSON.stringify(toAnthropicMessages(result, viewFormatOptions), null, 2), attachments.ids)
    return ''
  }, [result, format, openAI, attachments])
  if (openAI !== undefined) {
    return (
      <div data-testid="request-json" data-provider="openai">
        <div className="tl-row">
          <CopyButton text={json} label="copy request JSON" />
        </div>
        <AttachmentsLeftOut images={attachments.images} files={attachments.files} />
        {openAI.map((message, position) => (
          <div key={position} className="tl-message" data-testid="provider-message">
            <div className="tl-role">{message.role}</div>
            <CollapsibleText pre text={readableRequest(JSON.stringify(message, null, 2), attachments.ids)} limit={COLLAPSE_JSON_AFTER_CHARS} />
            <div className="tl-tokens">{formatNumber(result.meta.messages[position]?.tokens ?? 0)} tok</div>
          </div>
        ))}
      </div>
    )
  }
  return (
    <div data-testid="request-json" data-provider="anthropic">
      <div className="tl-row">
        <CopyButton text={json} label="copy request JSON" />
        <span className="tl-muted">
          Anthropic merges consecutive roles and moves system text to `system`; per-message tokens are in the neutral view.
        </span>
      </div>
      <AttachmentsLeftOut images={attachments.images} files={attachments.files} />
      <CollapsibleText pre text={json} limit={COLLAPSE_JSON_AFTER_CHARS * 4} />
    </div>
  )
}
