import { useEffect, useState } from 'react'
import { useStore } from 'zustand'
import { dockPositions, RIGHT_DOCK_MIN_VIEWPORT, type DockPosition } from '../constants'
import type { DevtoolsUiStore } from '../view-models/ui-state'
import { useFloatingDrag } from './use-resize'
import { rightDockFits, useViewport } from './use-viewport'

const dockLabels: Readonly<Record<DockPosition, { readonly glyph: string; readonly label: string }>> = {
  bottom: { glyph: '▁', label: 'Dock to the bottom' },
  right: { glyph: '▕', label: 'Dock to the right' },
  floating: { glyph: '❐', label: 'Float over the page' },
}

/** Why a right dock shows at the bottom on this window (a phone has no room for a column beside the page). */
export function rightDockUnavailable(viewportWidth: number): string {
  return `A right dock needs a window at least ${RIGHT_DOCK_MIN_VIEWPORT} px wide (this one is ${Math.round(viewportWidth)} px): the panel stays at the bottom, and moves right on a wider window`
}

/** How long the note saying why the right dock is not shown stays up after a click, in ms. */
const NOTE_MS = 6000

/**
 * Dock position buttons, a move handle when floating, and the close button: shown in the panel
 * header. Each button has a name and a tooltip; on a window too narrow for a right dock, that button
 * says why in its tooltip, and a click shows the reason under the header for a few seconds (the
 * choice is kept and applies on a wider window).
 */
export function DockControls({ ui, onClose }: { readonly ui: DevtoolsUiStore; readonly onClose: () => void }) {
  const dock = useStore(ui, (state) => state.dock)
  const floating = useStore(ui, (state) => state.floating)
  const move = useFloatingDrag('move', floating, (rect) => ui.getState().setFloating(rect))
  const viewport = useViewport()
  const rightFits = rightDockFits(viewport.width)
  const [note, setNote] = useState(false)
  useEffect(() => {
    if (!note) return
    const timer = setTimeout(() => setNote(false), NOTE_MS)
    return () => clearTimeout(timer)
  }, [note])
  const choose = (position: DockPosition) => {
    ui.getState().setDock(position)
    setNote(position === 'right' && !rightFits)
  }
  return (
    <span className="tl-controls" role="group" aria-label="Panel position">
      {dock === 'floating' ? (
        <button
          type="button"
          className="tl-control tl-move"
          data-testid="devtools-move"
          aria-label="Move the devtools: drag, or arrow keys"
          title="Drag to move (or arrow keys)"
          {...move}
        >
          ✥
        </button>
      ) : null}
      {dockPositions.map((position) => {
        const unavailable = position === 'right' && !rightFits
        const label = unavailable ? `${dockLabels.right.label}: ${rightDockUnavailable(viewport.width)}` : dockLabels[position].label
        return (
          <button
            key={position}
            type="button"
            className="tl-control"
            aria-pressed={dock === position}
            aria-label={label}
            title={label}
            data-testid={`dock-${position}`}
            data-unavailable={unavailable ? 'true' : undefined}
            onClick={() => choose(position)}
          >
            {dockLabels[position].glyph}
          </button>
        )
      })}
      <button
        type="button"
        className="tl-control"
        data-testid="devtools-close"
        aria-label="Close threadlens devtools"
        title="Close threadlens devtools"
        onClick={onClose}
      >
        ✕
      </button>
      {/* Always there (empty when it has nothing to say), so the reason is announced when it appears. */}
      <span className="tl-dock-note" role="status" data-testid="dock-note">
        {note && !rightFits ? rightDockUnavailable(viewport.width) : ''}
      </span>
    </span>
  )
}
