import { tokenSegments, type EncodingName } from '@threadlens/core/views'
import { useEffect, useState } from 'react'

/** Tokens coloured before the rest is left plain: a huge result must not freeze the panel. */
export const TOKENS_COLOURED = 2000
const COLOURS = 5

type State =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly segments: readonly { text: string; tokens: number }[] }
  | { readonly status: 'error'; readonly message: string }

/** The text split at token boundaries, each token on its own shade (as text, never HTML). Loads the encoding on first use. */
export function TokenText({ text, encoding }: { readonly text: string; readonly encoding: EncodingName }) {
  const [state, setState] = useState<State>({ status: 'loading' })
  useEffect(() => {
    let live = true
    setState({ status: 'loading' })
    tokenSegments(text, encoding).then(
      (segments) => live && setState({ status: 'ready', segments }),
      (error: unknown) => live && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      live = false
    }
  }, [text, encoding])
  if (state.status === 'loading') return <p className="tl-muted">loading the {encoding} encoding…</p>
  if (state.status === 'error') return <p className="tl-error">{state.message}</p>
  const total = state.segments.reduce((sum, segment) => sum + segment.tokens, 0)
  let counted = 0
  let shown = 0
  while (shown < state.segments.length && counted < TOKENS_COLOURED) counted += (state.segments[shown++] as { tokens: number }).tokens
  const rest = state.segments
    .slice(shown)
    .map((segment) => segment.text)
    .join('')
  return (
    <div data-testid="token-text" data-tokens={total}>
      <p className="tl-muted">
        {total} tokens ({encoding}){shown < state.segments.length ? `, the first ${counted} coloured` : ''}
      </p>
      <pre className="tl-pre tl-token-text">
        {state.segments.slice(0, shown).map((segment, index) => (
          <span
            key={index}
            className={`tl-token tl-token-${index % COLOURS}`}
            data-testid="token"
            title={segment.tokens === 1 ? `token ${index + 1}` : `${segment.tokens} tokens (one character split across them)`}
          >
            {segment.text}
          </span>
        ))}
        {rest}
      </pre>
    </div>
  )
}

/** A "tokens" switch beside a message: shows its token boundaries on demand. */
export function TokenToggle({ text, encoding }: { readonly text: string; readonly encoding: EncodingName }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="tl-more" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="token-toggle">
        {open ? 'hide tokens' : 'show tokens'}
      </button>
      {open ? <TokenText text={text} encoding={encoding} /> : null}
    </>
  )
}
