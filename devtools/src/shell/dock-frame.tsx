import { type ReactNode } from 'react'
import { useStore } from 'zustand'
import { MIN_FLOATING_WIDTH, MIN_PANEL_SIZE } from '../constants'
import type { DevtoolsUiStore } from '../view-models/ui-state'
import { useReservedSpace } from './reserved-space'
import { clampFloating, clampSize, maxSize, useFloatingDrag, useResize } from './use-resize'
import { rightDockFits, useViewport } from './use-viewport'

/**
 * The panel's frame: docked to the bottom or right edge with a resize handle on its inner edge, or
 * floating with a corner handle. Each handle is a focusable separator that arrow keys move.
 */
export function DockFrame({ ui, children }: { readonly ui: DevtoolsUiStore; readonly children: ReactNode }) {
  const dock = useStore(ui, (state) => state.dock)
  const size = useStore(ui, (state) => state.size)
  const floating = useStore(ui, (state) => state.floating)
  const viewport = useViewport()
  // A phone has no room for a column beside the page: a right dock shows at the bottom there.
  const edge = dock === 'right' && rightDockFits(viewport.width) ? 'right' : 'bottom'
  const resize = useResize(edge, size, (next) => ui.getState().setSize(next))
  const corner = useFloatingDrag('resize', floating, (rect) => ui.getState().setFloating(rect))
  const shown = clampSize(size, edge)
  useReservedSpace(dock === 'floating' ? undefined : edge, shown)
  if (dock === 'floating') {
    const box = clampFloating(floating)
    return (
      <div
        className="tl-frame tl-frame-floating"
        style={{ left: box.x, top: box.y, width: box.width, height: box.height }}
        data-testid="devtools-frame"
        data-dock={dock}
        role="dialog"
        aria-label="threadlens devtools"
      >
        <div className="tl-frame-body">{children}</div>
        <div
          className="tl-resize tl-resize-corner"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the devtools: drag, or arrow keys (left and right for width, up and down for height)"
          aria-valuenow={box.width}
          aria-valuemin={MIN_FLOATING_WIDTH}
          aria-valuemax={globalThis.innerWidth}
          tabIndex={0}
          data-testid="devtools-resize"
          {...corner}
        />
      </div>
    )
  }
  return (
    <div
      className={`tl-frame tl-frame-${edge}`}
      style={edge === 'bottom' ? { height: shown } : { width: shown }}
      data-testid="devtools-frame"
      data-dock={dock}
      data-edge={edge}
      role="dialog"
      aria-label="threadlens devtools"
    >
      <div
        className="tl-resize"
        role="separator"
        aria-orientation={edge === 'bottom' ? 'horizontal' : 'vertical'}
        aria-label={`Resize the devtools: drag, or arrow keys (${edge === 'bottom' ? 'up and down' : 'left and right'})`}
        aria-valuenow={shown}
        aria-valuemin={MIN_PANEL_SIZE}
        aria-valuemax={maxSize(edge)}
        tabIndex={0}
        data-testid="devtools-resize"
        {...resize}
      />
      <div className="tl-frame-body">{children}</div>
    </div>
  )
}
