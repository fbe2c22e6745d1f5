import { useMemo } from 'react'
import { useStore } from 'zustand'
import { usePanel } from './panel-context'

/**
 * A set filter remembered across reloads under `name` (in the devtools' UI state). Stored values
 * that are not among `all` are ignored; nothing stored means everything chosen.
 */
export function useRememberedSet<T extends string>(name: string, all: readonly T[]): readonly [ReadonlySet<T>, (next: ReadonlySet<T>) => void] {
  const ui = usePanel().ui
  const stored = useStore(ui, (state) => state.filters[name])
  const chosen = useMemo(() => {
    if (!Array.isArray(stored)) return new Set(all)
    const known = new Set<string>(all)
    return new Set((stored as readonly string[]).filter((value): value is T => known.has(value)))
  }, [stored, all])
  const set = (next: ReadonlySet<T>) => ui.getState().setFilter(name, next.size === all.length ? undefined : [...next])
  return [chosen, set] as const
}

/** A text filter remembered across reloads under `name`. */
export function useRememberedText(name: string): readonly [string, (next: string) => void] {
  const ui = usePanel().ui
  const stored = useStore(ui, (state) => state.filters[name])
  const set = (next: string) => ui.getState().setFilter(name, next === '' ? undefined : next)
  return [typeof stored === 'string' ? stored : '', set] as const
}
