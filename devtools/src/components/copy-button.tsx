import { useState } from 'react'

/** Copies text to the clipboard and says whether it worked. */
export function CopyButton({ text, label = 'copy' }: { readonly text: string; readonly label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  // Repeated on purpose: the clipboard write of packages/react/src/errors/error-boundary.tsx (@threadlens/react's one
  // entry exports no clipboard helper, and an app-facing hook for it would be API for the devtools' sake).
  const copy = () => {
    const clipboard = globalThis.navigator?.clipboard
    if (clipboard === undefined) {
      setState('failed')
      return
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    )
  }
  return (
    <button type="button" className="tl-button" onClick={copy} data-testid="copy-button" data-state={state}>
      {state === 'copied' ? 'copied' : state === 'failed' ? 'copy failed' : label}
    </button>
  )
}
