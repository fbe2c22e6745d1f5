// Repeated on purpose: the readers this file uses, by the names packages/core/src/internal/index.ts exports (an import list).
import {
  array,
  boolean,
  looseObject,
  number,
  oneOf,
  optional,
  read,
  record,
  string,
  union,
  type OptionalReader,
  type Reader,
} from '@threadlens/core/internal'
import { createJSONStorage, persist } from 'zustand/middleware'
import { createStore, type StoreApi } from 'zustand/vanilla'
import {
  DEFAULT_DOCK,
  DEFAULT_FLOATING_RECT,
  DEFAULT_PANEL_SIZE,
  DEFAULT_STORAGE_KEY,
  dockPositions,
  type DockPosition,
  type FloatingRect,
} from '../constants'
import { DEFAULT_TAB, tabIds, type TabId } from '../panel/tab-registry'

/** A remembered filter: a text or a list of chosen values. */
export type FilterValue = string | readonly string[]

/** What the devtools remember between reloads (in localStorage, so per origin). */
export interface DevtoolsUiState {
  readonly open: boolean
  readonly dock: DockPosition
  /** Height (bottom dock) or width (right dock) in CSS pixels. */
  readonly size: number
  /** The floating panel's box. */
  readonly floating: FloatingRect
  readonly tab: TabId
  /** Tab filters by name (`timeline-kinds`, …). */
  readonly filters: Readonly<Record<string, FilterValue>>
  /** A tab that failed to render (this page only): never remembered as the tab to reopen on. */
  readonly failedTab?: TabId | undefined
}

export interface DevtoolsUiActions {
  setOpen(open: boolean): void
  toggle(): void
  setDock(dock: DockPosition): void
  setSize(size: number): void
  setFloating(rect: FloatingRect): void
  setTab(tab: TabId): void
  setFilter(name: string, value: FilterValue | undefined): void
  /** Marks a tab as failed (or none): the panel then reopens on the default tab, not on it. */
  setTabFailed(tab: TabId | undefined): void
}

export type DevtoolsUiStore = StoreApi<DevtoolsUiState & DevtoolsUiActions>

const pixels = number({ min: -100_000, max: 100_000 })
const positivePixels = number({ min: -100_000, above: 0, max: 100_000 })
const floatingRect = looseObject<FloatingRect>({ x: pixels, y: pixels, width: positivePixels, height: positivePixels })
// Filter names are plain identifiers: a stored `__proto__` key is refused, never merged.
const filterName = string({ pattern: /^[a-z][a-z0-9-]{0,63}$/ })
const filterValue = union<FilterValue>([string({ max: 1_000 }), array(string({ max: 200 }), 100)])

/** A stored field: what `reader` accepts, else left out (its default is used). */
function orDefault<T>(reader: Reader<T>): OptionalReader<T> {
  return optional((value) => {
    const result = read(reader, value)
    return (result.ok ? result.value : undefined) as T
  }, 'loose')
}

type StoredUiState = Partial<Omit<DevtoolsUiState, 'failedTab'>>

/**
 * What may be read back from localStorage. Stored JSON is not trusted: another version of the
 * devtools, the user or an extension may have written it. Each field is checked on its own and a
 * bad one falls back to its default, so one stale field never resets the rest.
 */
const storedUiState = looseObject<StoredUiState>({
  open: orDefault(boolean),
  dock: orDefault(oneOf(dockPositions)),
  size: orDefault(positivePixels),
  floating: orDefault(floatingRect),
  tab: orDefault(oneOf(tabIds)),
  filters: orDefault(record(filterName, filterValue)),
})

/** The remembered state read back: stored fields that pass their check, defaults for the rest. */
export function restoreUiState(stored: unknown, defaults: DevtoolsUiState): DevtoolsUiState {
  const result = read(storedUiState, stored)
  const saved: StoredUiState = result.ok ? result.value : {}
  return {
    open: saved.open ?? defaults.open,
    dock: saved.dock ?? defaults.dock,
    size: saved.size ?? defaults.size,
    floating: saved.floating ?? defaults.floating,
    tab: saved.tab ?? defaults.tab,
    filters: saved.filters === undefined ? defaults.filters : Object.assign(Object.create(null) as Record<string, FilterValue>, saved.filters),
  }
}

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

// Unparseable JSON reads as nothing stored, so the panel starts from its defaults.
function tolerantStorage(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {
  return {
    getItem: (name: string) => {
      const text = storage.getItem(name)
      if (text === null) return null
      try {
        JSON.parse(text)
        return text
      } catch {
        return null
      }
    },
    setItem: (name: string, value: string) => {
      try {
        storage.setItem(name, value)
      } catch {
        // A full or read-only storage: the state lives on in memory for this page.
      }
    },
    removeItem: (name: string) => storage.removeItem(name),
  }
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
        floating: DEFAULT_FLOATING_RECT,
        tab: DEFAULT_TAB,
        filters: {},
        setOpen: (open) => set({ open }),
        toggle: () => set((state) => ({ open: !state.open })),
        setDock: (dock) => set({ dock }),
        setSize: (size) => set({ size: Math.round(size) }),
        setFloating: (rect) =>
          set({ floating: { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) } }),
        // Selecting a tab tries it afresh; it is marked again if it fails again.
        setTab: (tab) => set({ tab, failedTab: undefined }),
        setTabFailed: (failedTab) => set({ failedTab }),
        setFilter: (name, value) =>
          set((state) => {
            const filters: Record<string, FilterValue> = { ...state.filters }
            if (value === undefined) delete filters[name]
            else filters[name] = value
            return { filters }
          }),
      }),
      {
        name: storageKey,
        // Version 1 kept open, dock, size and tab; version 2 adds floating and filters. Old state is
        // read as is: the check takes what it knows.
        version: 2,
        migrate: (persisted) => persisted as DevtoolsUiState,
        storage: createJSONStorage(() => tolerantStorage(safeStorage() ?? fallbackStorage)),
        // A tab that failed is not the one to reopen on: a reload would only show the failure again.
        partialize: (state) => ({
          open: state.open,
          dock: state.dock,
          size: state.size,
          floating: state.floating,
          tab: state.failedTab === state.tab ? DEFAULT_TAB : state.tab,
          filters: state.filters,
        }),
        merge: (persisted, current) => ({ ...current, ...restoreUiState(persisted, current) }),
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
