import { lazy, Suspense } from 'react'
import type { PanelBodyProps } from '../panel/panel'

// The panel body is its own chunk: an app pays for it only when the panel first opens.
const Panel = lazy(() => import('../panel/panel'))

export function LazyPanel(props: PanelBodyProps) {
  return (
    <Suspense fallback={<div className="tl-loading" data-testid="panel-loading">loading threadlens devtools…</div>}>
      <Panel {...props} />
    </Suspense>
  )
}
