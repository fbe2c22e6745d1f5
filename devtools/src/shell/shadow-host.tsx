import { useCallback, useState, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

export interface ShadowHostProps {
  readonly children: ReactNode
  readonly style?: CSSProperties
  readonly className?: string
  readonly testId?: string
}

/**
 * Renders its children into an open shadow root: the host app's CSS cannot reach in, and the
 * devtools' CSS cannot leak out. (React listens for events on the portal's shadow root itself.)
 */
export function ShadowHost({ children, style, className, testId }: ShadowHostProps) {
  const [root, setRoot] = useState<ShadowRoot | null>(null)
  const attach = useCallback((host: HTMLDivElement | null) => {
    if (host !== null) setRoot(host.shadowRoot ?? host.attachShadow({ mode: 'open' }))
  }, [])
  return (
    <div ref={attach} style={style} className={className} data-testid={testId} data-threadlens-devtools="">
      {root === null ? null : createPortal(children, root)}
    </div>
  )
}
