import { useEffect, useState } from 'react'
import { RIGHT_DOCK_MIN_VIEWPORT } from '../constants'

/** The viewport's size, re-read on resizes (so a remembered size that no longer fits is clamped again). */
export function useViewport(): { readonly width: number; readonly height: number } {
  const [viewport, setViewport] = useState(() => ({ width: globalThis.innerWidth, height: globalThis.innerHeight }))
  useEffect(() => {
    const onResize = () => setViewport({ width: globalThis.innerWidth, height: globalThis.innerHeight })
    globalThis.addEventListener('resize', onResize)
    return () => globalThis.removeEventListener('resize', onResize)
  }, [])
  return viewport
}

/** Whether a panel docked right is shown there on a viewport this wide (on a phone it shows at the bottom). */
export function rightDockFits(viewportWidth: number): boolean {
  return viewportWidth >= RIGHT_DOCK_MIN_VIEWPORT
}
