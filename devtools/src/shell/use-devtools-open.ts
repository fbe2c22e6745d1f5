import { useStore } from 'zustand'
import { DEFAULT_STORAGE_KEY } from '../constants'
import { devtoolsUiStore } from '../view-models/ui-state'

/**
 * Whether the devtools panel with this storage key is open, for an app that draws its own toggle
 * (`showToggle={false}`): bind the button's `aria-expanded` to it and call `toggleDevtools()`.
 * `storageKey` defaults to `threadlens-devtools`.
 */
export function useDevtoolsOpen(storageKey: string = DEFAULT_STORAGE_KEY): boolean {
  return useStore(devtoolsUiStore(storageKey), (state) => state.open)
}
