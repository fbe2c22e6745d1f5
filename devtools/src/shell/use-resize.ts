import { useRef, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react'
import {
  KEYBOARD_STEP,
  MAX_PANEL_SHARE,
  MIN_FLOATING_WIDTH,
  MIN_PANEL_SIZE,
  NARROW_BOTTOM_MAX_SHARE,
  RIGHT_DOCK_MIN_VIEWPORT,
  type FloatingRect,
} from '../constants'

type DockedEdge = 'bottom' | 'right'

/** Largest docked size the viewport allows: on a phone, a bottom dock takes at most half the height. */
export function maxSize(dock: DockedEdge): number {
  const viewport = dock === 'bottom' ? globalThis.innerHeight : globalThis.innerWidth
  const share = dock === 'bottom' && globalThis.innerWidth < RIGHT_DOCK_MIN_VIEWPORT ? NARROW_BOTTOM_MAX_SHARE : MAX_PANEL_SHARE
  return Math.max(MIN_PANEL_SIZE, Math.floor(viewport * share))
}

/** Clamps a docked panel's size to the viewport. */
export function clampSize(size: number, dock: DockedEdge): number {
  return Math.max(MIN_PANEL_SIZE, Math.min(size, maxSize(dock)))
}

/** Keeps a floating panel inside the viewport, no smaller than its minimum. */
export function clampFloating(rect: FloatingRect): FloatingRect {
  const viewportWidth = globalThis.innerWidth
  const viewportHeight = globalThis.innerHeight
  const width = Math.min(Math.max(rect.width, Math.min(MIN_FLOATING_WIDTH, viewportWidth)), viewportWidth)
  const height = Math.min(Math.max(rect.height, Math.min(MIN_PANEL_SIZE, viewportHeight)), viewportHeight)
  return {
    x: Math.min(Math.max(0, rect.x), viewportWidth - width),
    y: Math.min(Math.max(0, rect.y), viewportHeight - height),
    width,
    height,
  }
}

function stepOf(event: ReactKeyboardEvent<HTMLElement>): number {
  return event.shiftKey ? KEYBOARD_STEP * 5 : KEYBOARD_STEP
}

function capture(event: ReactPointerEvent<HTMLElement>): void {
  try {
    event.currentTarget.setPointerCapture(event.pointerId)
  } catch {
    // A pointer the browser does not know (synthetic events): drag without capture.
  }
}

function release(event: ReactPointerEvent<HTMLElement>): void {
  if (event.currentTarget.hasPointerCapture?.(event.pointerId) === true) event.currentTarget.releasePointerCapture(event.pointerId)
}

/** Handlers for a docked panel's resize handle: drag, or arrow keys (Shift for bigger steps). */
export function useResize(dock: DockedEdge, size: number, setSize: (size: number) => void) {
  const start = useRef<{ pointer: number; size: number } | undefined>(undefined)
  return {
    onPointerDown(event: ReactPointerEvent<HTMLElement>) {
      capture(event)
      start.current = { pointer: dock === 'bottom' ? event.clientY : event.clientX, size }
    },
    onPointerMove(event: ReactPointerEvent<HTMLElement>) {
      if (start.current === undefined) return
      const position = dock === 'bottom' ? event.clientY : event.clientX
      // The panel grows as the handle moves away from its edge (up for bottom, left for right).
      setSize(clampSize(start.current.size + (start.current.pointer - position), dock))
    },
    onKeyDown(event: ReactKeyboardEvent<HTMLElement>) {
      const grow: Record<string, number> = dock === 'bottom' ? { ArrowUp: 1, ArrowDown: -1 } : { ArrowLeft: 1, ArrowRight: -1 }
      if (event.key === 'Home' || event.key === 'End') {
        event.preventDefault()
        setSize(event.key === 'Home' ? MIN_PANEL_SIZE : maxSize(dock))
        return
      }
      const direction = grow[event.key]
      if (direction === undefined) return
      event.preventDefault()
      setSize(clampSize(size + direction * stepOf(event), dock))
    },
    onPointerUp(event: ReactPointerEvent<HTMLElement>) {
      start.current = undefined
      release(event)
    },
  }
}

/**
 * Handlers that change a floating panel's box: `move` drags it (or arrow keys move it), `resize`
 * drags its corner (or arrow keys: left/right the width, up/down the height).
 */
export function useFloatingDrag(mode: 'move' | 'resize', rect: FloatingRect, setRect: (rect: FloatingRect) => void) {
  const start = useRef<{ x: number; y: number; rect: FloatingRect } | undefined>(undefined)
  const apply = (dx: number, dy: number, from: FloatingRect) =>
    setRect(
      clampFloating(mode === 'move' ? { ...from, x: from.x + dx, y: from.y + dy } : { ...from, width: from.width + dx, height: from.height + dy }),
    )
  return {
    onPointerDown(event: ReactPointerEvent<HTMLElement>) {
      if (event.button !== 0) return
      capture(event)
      start.current = { x: event.clientX, y: event.clientY, rect }
    },
    onPointerMove(event: ReactPointerEvent<HTMLElement>) {
      if (start.current === undefined) return
      apply(event.clientX - start.current.x, event.clientY - start.current.y, start.current.rect)
    },
    onPointerUp(event: ReactPointerEvent<HTMLElement>) {
      start.current = undefined
      release(event)
    },
    onKeyDown(event: ReactKeyboardEvent<HTMLElement>) {
      const arrows: Record<string, readonly [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
      const arrow = arrows[event.key]
      if (arrow === undefined) return
      event.preventDefault()
      apply(arrow[0] * stepOf(event), arrow[1] * stepOf(event), rect)
    },
  }
}
