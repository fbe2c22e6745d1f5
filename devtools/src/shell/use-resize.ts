import { useRef, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react'
import { MAX_PANEL_SHARE, MIN_PANEL_SIZE, type DockPosition } from '../constants'

/** Clamps a panel size to the viewport. */
export function clampSize(size: number, dock: DockPosition): number {
  const viewport = dock === 'bottom' ? globalThis.innerHeight : globalThis.innerWidth
  return Math.max(MIN_PANEL_SIZE, Math.min(size, Math.floor(viewport * MAX_PANEL_SHARE)))
}

/** Pointer handlers for the resize handle: drag to resize, with pointer capture. */
export function useResize(dock: DockPosition, size: number, setSize: (size: number) => void) {
  const start = useRef<{ pointer: number; size: number } | undefined>(undefined)
  return {
    onPointerDown(event: ReactPointerEvent<HTMLElement>) {
      try {
        event.currentTarget.setPointerCapture(event.pointerId)
      } catch {
        // A pointer the browser does not know (synthetic events): resize without capture.
      }
      start.current = { pointer: dock === 'bottom' ? event.clientY : event.clientX, size }
    },
    onPointerMove(event: ReactPointerEvent<HTMLElement>) {
      if (start.current === undefined) return
      const position = dock === 'bottom' ? event.clientY : event.clientX
      // The panel grows as the handle moves away from its edge (up for bottom, left for right).
      setSize(clampSize(start.current.size + (start.current.pointer - position), dock))
    },
    /** Arrow keys resize by 20 px, for keyboard users. */
    onKeyDown(event: ReactKeyboardEvent<HTMLElement>) {
      const grow = dock === 'bottom' ? { ArrowUp: 20, ArrowDown: -20 } : { ArrowLeft: 20, ArrowRight: -20 }
      const step = (grow as Record<string, number>)[event.key]
      if (step === undefined) return
      event.preventDefault()
      setSize(clampSize(size + step, dock))
    },
    onPointerUp(event: ReactPointerEvent<HTMLElement>) {
      start.current = undefined
      if (event.currentTarget.hasPointerCapture?.(event.pointerId) === true) event.currentTarget.releasePointerCapture(event.pointerId)
    },
  }
}
