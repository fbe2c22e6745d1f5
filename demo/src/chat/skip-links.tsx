import type { MouseEvent } from 'react'

/** Where the skip links land: the conversation (a focusable scroll region) and the message box. */
export const CONVERSATION_ID = 'chat-conversation'
export const COMPOSER_INPUT_ID = 'chat-composer-input'

// The chat keeps its thread in the URL hash (`#thread=…`): a plain `#id` link would replace it, so
// each link moves focus itself and leaves the URL alone.
function focusTarget(id: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(id)
    if (target === null) return
    event.preventDefault()
    target.focus()
    target.scrollIntoView({ block: 'nearest' })
  }
}

/** The first tab stops of the page, shown only when focused: past the chat list to the conversation or the composer. */
export function SkipLinks() {
  return (
    <div className="chat-skip-links">
      <a className="chat-skip-link" href={`#${CONVERSATION_ID}`} onClick={focusTarget(CONVERSATION_ID)}>
        Skip to the conversation
      </a>
      <a className="chat-skip-link" href={`#${COMPOSER_INPUT_ID}`} onClick={focusTarget(COMPOSER_INPUT_ID)}>
        Skip to the composer
      </a>
    </div>
  )
}
