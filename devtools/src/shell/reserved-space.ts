import { useEffect } from 'react'

/** CSS custom properties on `<html>` that say how much of the viewport a docked panel covers. */
export const RESERVED_BOTTOM_PROPERTY = '--threadlens-devtools-bottom'
export const RESERVED_RIGHT_PROPERTY = '--threadlens-devtools-right'

/**
 * Publishes the room a docked panel takes (bottom height or right width, in px) as CSS custom
 * properties on the document root, and removes them when the panel closes, floats or unmounts. An
 * app that wants to stay usable beside the panel pads or insets its layout by
 * `var(--threadlens-devtools-bottom, 0px)` and `var(--threadlens-devtools-right, 0px)`; one that
 * does not is simply covered, as before. (TanStack Query's devtools pad their container for the
 * same reason; variables leave the choice, and the layout, to the app.)
 */
export function useReservedSpace(edge: 'bottom' | 'right' | undefined, size: number): void {
  useEffect(() => {
    const root = globalThis.document?.documentElement
    if (root === undefined || edge === undefined) return
    const property = edge === 'bottom' ? RESERVED_BOTTOM_PROPERTY : RESERVED_RIGHT_PROPERTY
    root.style.setProperty(property, `${Math.round(size)}px`)
    return () => {
      root.style.removeProperty(property)
    }
  }, [edge, size])
}
