import { useMemo } from 'react'
import { useStore } from 'zustand'
import { usePanel } from './panel-context'

// Every tab's filters live in the devtools' UI state (`filters`, checked by its reader when read
// back from localStorage). Each hook here then checks the stored value against what the tab offers:
// a value that is not among them (another version's, a hand edit) reads as the default.

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

/**
 * One choice among `choices` remembered across reloads under `name`; a stored value that is not
 * one of them reads as `fallback`, and choosing `fallback` forgets the filter.
 */
export function useRememberedChoice<T extends string>(name: string, choices: readonly T[], fallback: T): readonly [T, (next: T) => void] {
  const ui = usePanel().ui
  const stored = useStore(ui, (state) => state.filters[name])
  const value = typeof stored === 'string' && (choices as readonly string[]).includes(stored) ? (stored as T) : fallback
  const set = (next: T) => ui.getState().setFilter(name, next === fallback ? undefined : next)
  return [value, set] as const
}
