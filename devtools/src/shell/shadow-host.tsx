import { useCallback, useState, type HTMLAttributes, type ReactNode } from 'react'
import { createPortal } from 'react-dom'

export interface ShadowHostProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly children: ReactNode
  readonly testId?: string
}

/**
 * Renders its children into an open shadow root: the host app's CSS cannot reach in, and the
 * devtools' CSS cannot leak out. (React listens for events on the portal's shadow root itself.)
 * Other attributes go on the host element.
 */
export function ShadowHost({ children, testId, ...host }: ShadowHostProps) {
  const [root, setRoot] = useState<ShadowRoot | null>(null)
  const attach = useCallback((element: HTMLDivElement | null) => {
    if (element !== null) setRoot(element.shadowRoot ?? element.attachShadow({ mode: 'open' }))
  }, [])
  return (
    <div ref={attach} data-testid={testId} {...host} data-threadlens-devtools="">
      {root === null ? null : createPortal(children, root)}
    </div>
  )
}
