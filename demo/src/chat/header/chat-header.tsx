import type { ProjectionMeta } from '@threadlens/core'
import { ThreadlensTokenMeter } from '@threadlens/devtools'
import type { RefObject } from 'react'
import type { ChatLayout } from '../active-chat'
import type { ChatPolicyOption } from '../policy/chat-policies'
import { PolicySelect } from './policy-select'
import { SyncControl } from '../sync/sync-control'

export interface ChatHeaderProps {
  readonly title: string
  readonly entryCount: number | undefined
  readonly modelLabel: string
  readonly options: readonly ChatPolicyOption[]
  readonly policyId: string
  onPolicy(id: string): void
  readonly meta: ProjectionMeta | undefined
  readonly meterSource: 'in-flight' | 'next-call'
  readonly busy: boolean
  /** Which of the chat list, the devtools and the settings are open, and their toggles. */
  readonly layout: ChatLayout
  /** The Devtools button, where focus returns when the panel closes. */
  readonly devtoolsToggleRef: RefObject<HTMLButtonElement | null>
  onLongSession(): void
  onCompact(): void
}

/** The open chat's title, the model, the policy, the token meter (always visible) and the actions. */
export function ChatHeader(props: ChatHeaderProps) {
  const { layout } = props
  return (
    <header className="chat-header">
      <div className="chat-header-row">
        <button
          type="button"
          className="chat-button chat-only-narrow"
          aria-controls="chat-sidebar"
          aria-expanded={layout.sidebarOpen}
          onClick={layout.toggleSidebar}
        >
          Chats
        </button>
        <div className="chat-header-title">
          <h1 className="chat-title" data-testid="chat-title">
            {props.title}
          </h1>
          <p className="chat-muted chat-header-facts">
            <span data-testid="entry-count">{props.entryCount ?? '…'}</span> entries ·{' '}
            <button
              type="button"
              className="chat-link-button"
              onClick={layout.toggleSettings}
              aria-expanded={layout.settingsOpen}
              aria-controls="chat-settings"
              data-testid="model-label"
              title="Change the model"
            >
              Model: {props.modelLabel}
            </button>
          </p>
        </div>
        <div className="chat-header-actions">
          <button
            type="button"
            className="chat-button"
            onClick={props.onLongSession}
            disabled={props.busy}
            title="Append a few hundred realistic turns with tool calls to this chat"
          >
            Long session
          </button>
          <button type="button" className="chat-button" onClick={props.onCompact} disabled={props.busy} title="Summarize what the policy allows now">
            Compact now
          </button>
          <button
            ref={props.devtoolsToggleRef}
            type="button"
            className="chat-button"
            aria-expanded={layout.devtoolsOpen}
            data-testid="chat-devtools-toggle"
            title="Open or close the threadlens devtools (Alt+Shift+D)"
            onClick={layout.toggleDevtools}
          >
            Devtools
          </button>
        </div>
      </div>
      <div className="chat-header-row chat-header-tools">
        <PolicySelect options={props.options} value={props.policyId} onChange={props.onPolicy} />
        <SyncControl />
        {/* The devtools' meter: an app component, shown in production builds too. */}
        <ThreadlensTokenMeter
          meta={props.meta}
          label={props.meterSource === 'in-flight' ? 'Tokens of the call in flight' : 'Tokens of the next call'}
          className="chat-meter"
          data-testid="chat-token-meter"
          data-source={props.meterSource}
        />
      </div>
    </header>
  )
}
