import { useStore } from 'zustand'
import { dockPositions, RIGHT_DOCK_MIN_VIEWPORT, type DockPosition } from '../constants'
import type { DevtoolsUiStore } from '../model/ui-state'
import { useFloatingDrag } from './use-resize'

const dockLabels: Readonly<Record<DockPosition, { readonly glyph: string; readonly label: string }>> = {
  bottom: { glyph: '▁', label: 'Dock to the bottom' },
  right: { glyph: '▕', label: `Dock to the right (at the bottom on windows under ${RIGHT_DOCK_MIN_VIEWPORT} px)` },
  floating: { glyph: '❐', label: 'Float over the page' },
}

/** Dock position buttons, a move handle when floating, and the close button: shown in the panel header. */
export function DockControls({ ui, onClose }: { readonly ui: DevtoolsUiStore; readonly onClose: () => void }) {
  const dock = useStore(ui, (state) => state.dock)
  const floating = useStore(ui, (state) => state.floating)
  const move = useFloatingDrag('move', floating, (rect) => ui.getState().setFloating(rect))
  return (
    <span className="tl-controls" role="group" aria-label="Panel position">
      {dock === 'floating' ? (
        <button type="button" className="tl-control tl-move" data-testid="devtools-move" aria-label="Move the devtools: drag, or arrow keys" title="drag to move (or arrow keys)" {...move}>
          ✥
        </button>
      ) : null}
      {dockPositions.map((position) => (
        <button
          key={position}
          type="button"
          className="tl-control"
          aria-pressed={dock === position}
          aria-label={dockLabels[position].label}
          title={dockLabels[position].label}
          data-testid={`dock-${position}`}
          onClick={() => ui.getState().setDock(position)}
        >
          {dockLabels[position].glyph}
        </button>
      ))}
      <button type="button" className="tl-control" data-testid="devtools-close" aria-label="Close threadlens devtools" onClick={onClose}>
        ✕
      </button>
    </span>
  )
}
