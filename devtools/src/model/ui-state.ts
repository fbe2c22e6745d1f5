import { createJSONStorage, persist } from 'zustand/middleware'
import { createStore, type StoreApi } from 'zustand/vanilla'
import { DEFAULT_DOCK, DEFAULT_PANEL_SIZE, DEFAULT_STORAGE_KEY, DEFAULT_TAB, tabIds, type DockPosition, type TabId } from '../constants'

/** What the devtools remember between reloads (in localStorage). */
export interface DevtoolsUiState {
  readonly open: boolean
  readonly dock: DockPosition
  /** Height (bottom dock) or width (right dock) in CSS pixels. */
  readonly size: number
  readonly tab: TabId
}

export interface DevtoolsUiActions {
  setOpen(open: boolean): void
  toggle(): void
  setDock(dock: DockPosition): void
  setSize(size: number): void
  setTab(tab: TabId): void
}

export type DevtoolsUiStore = StoreApi<DevtoolsUiState & DevtoolsUiActions>

const stores = new Map<string, DevtoolsUiStore>()

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    // Storage can be blocked (sandboxed iframes, some privacy modes): remember nothing then.
    return undefined
  }
}

const memoryStorage = new Map<string, string>()
const fallbackStorage = {
  getItem: (name: string) => memoryStorage.get(name) ?? null,
  setItem: (name: string, value: string) => void memoryStorage.set(name, value),
  removeItem: (name: string) => void memoryStorage.delete(name),
}

/** The UI state store for one storage key (one per devtools instance); created on first use. */
export function devtoolsUiStore(storageKey: string = DEFAULT_STORAGE_KEY, initialOpen = false): DevtoolsUiStore {
  let store = stores.get(storageKey)
  if (store !== undefined) return store
  store = createStore<DevtoolsUiState & DevtoolsUiActions>()(
    persist(
      (set) => ({
        open: initialOpen,
        dock: DEFAULT_DOCK,
        size: DEFAULT_PANEL_SIZE,
        tab: DEFAULT_TAB,
        setOpen: (open) => set({ open }),
        toggle: () => set((state) => ({ open: !state.open })),
        setDock: (dock) => set({ dock }),
        setSize: (size) => set({ size: Math.round(size) }),
        setTab: (tab) => set({ tab }),
      }),
      {
        name: storageKey,
        version: 1,
        storage: createJSONStorage(() => safeStorage() ?? fallbackStorage),
        partialize: (state) => ({ open: state.open, dock: state.dock, size: state.size, tab: state.tab }),
        // Whatever is stored is checked: a bad value falls back to the default, never breaks the panel.
        merge: (persisted, current) => {
          const saved = (typeof persisted === 'object' && persisted !== null ? persisted : {}) as Partial<DevtoolsUiState>
          return {
            ...current,
            open: typeof saved.open === 'boolean' ? saved.open : current.open,
            dock: saved.dock === 'bottom' || saved.dock === 'right' ? saved.dock : current.dock,
            size: typeof saved.size === 'number' && Number.isFinite(saved.size) && saved.size > 0 ? saved.size : current.size,
            tab: tabIds.includes(saved.tab as TabId) ? (saved.tab as TabId) : current.tab,
          }
        },
      },
    ),
  )
  stores.set(storageKey, store)
  return store
}

/** Opens the devtools panel (of the instance with this storage key). */
export function openDevtools(storageKey: string = DEFAULT_STORAGE_KEY): void {
  devtoolsUiStore(storageKey).getState().setOpen(true)
}

/** Closes the devtools panel. */
export function closeDevtools(storageKey: string = DEFAULT_STORAGE_KEY): void {
  devtoolsUiStore(storageKey).getState().setOpen(false)
}

/** Opens the panel when closed, closes it when open. */
export function toggleDevtools(storageKey: string = DEFAULT_STORAGE_KEY): void {
  devtoolsUiStore(storageKey).getState().toggle()
}
