import { useEffect, type CSSProperties } from 'react'
import { listenForFirstInteraction } from '../panel/tab-loaders'
import { shellCss } from './shell-styles'
import { LazyPanel } from './lazy-panel'
import { ShadowHost } from './shadow-host'
import type { DevtoolsPanelProps } from '../panel/panel-props'

export interface ThreadlensDevtoolsPanelProps extends DevtoolsPanelProps {
  /** Style of the host element; give it a size (the panel fills it). Default: `{ display: 'block', height: '100%' }`. */
  readonly style?: CSSProperties
  readonly className?: string
}

/** The devtools panel to embed anywhere (a route, a split pane); lazy-loaded and style-isolated. */
export function ThreadlensDevtoolsPanel({ style, className, ...props }: ThreadlensDevtoolsPanelProps) {
  useEffect(listenForFirstInteraction, [])
  return (
    <ShadowHost
      style={style ?? { display: 'block', height: '100%' }}
      {...(className === undefined ? {} : { className })}
      testId="threadlens-devtools-panel"
    >
      <style>{shellCss}</style>
      <div style={{ display: 'flex', height: '100%', width: '100%' }}>
        <LazyPanel {...props} />
      </div>
    </ShadowHost>
  )
}
