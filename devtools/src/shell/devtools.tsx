import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react'
import { ThreadlensErrorBoundary, ThreadlensErrorFallback } from '@threadlens/react'
import { useStore } from 'zustand'
import { DEFAULT_BUTTON_POSITION, DEFAULT_SHORTCUT, DEFAULT_STORAGE_KEY, type ButtonPosition, type DockPosition } from '../constants'
import { matchesShortcut, parseShortcut } from '../view-models/shortcut'
import { devtoolsUiStore, type DevtoolsUiStore } from '../view-models/ui-state'
import type { DevtoolsPanelProps } from '../panel/panel-props'
import { listenForFirstInteraction } from '../panel/tab-loaders'
import { LazyPanel } from './lazy-panel'
import { ShadowHost } from './shadow-host'
import { shellCss } from './shell-styles'
import { DockControls } from './dock-controls'
import { DockFrame } from './dock-frame'

export interface ThreadlensDevtoolsProps extends DevtoolsPanelProps {
  /** Open on first visit (later visits remember the last state). Default false. */
  readonly initialIsOpen?: boolean
  /** Corner of the toggle button. Default `bottom-right`. */
  readonly buttonPosition?: ButtonPosition
  /** Keyboard shortcut that toggles the panel (`alt+shift+d`), or `false` for none. Default `alt+shift+d`. */
  readonly shortcut?: string | false
  /** Where the panel docks on first visit (later visits remember the last dock). Default `bottom`. */
  readonly initialDock?: DockPosition
  /**
   * Show the floating toggle button. Set `false` when the app has its own button (which calls
   * `toggleDevtools()` and reads `useDevtoolsOpen()`); pass it as `toggleRef` so focus returns to
   * it when the panel closes. Default `true`.
   */
  readonly showToggle?: boolean
  /** The app's own toggle button: focus goes back to it when the panel closes and nothing else had focus before. Default: none. */
  readonly toggleRef?: RefObject<HTMLElement | null>
}

/**
 * A floating toggle button that opens a devtools panel docked bottom or right, or floating; drag or
 * arrow keys resize it. The panel body loads on first open. UI state (open, dock, size, tab,
 * filters) is kept in localStorage (per origin, checked on read) under
 * `storageKey`; `openDevtools()`, `closeDevtools()` and `toggleDevtools()` drive it from code.
 */
export function ThreadlensDevtools({
  initialIsOpen = false,
  initialDock,
  buttonPosition = DEFAULT_BUTTON_POSITION,
  shortcut = DEFAULT_SHORTCUT,
  showToggle = true,
  toggleRef,
  ...props
}: ThreadlensDevtoolsProps) {
  const storageKey = props.storageKey ?? DEFAULT_STORAGE_KEY
  const ui = devtoolsUiStore(storageKey, initialIsOpen)
  // The store may already exist (an app's `useDevtoolsOpen()` rendered first, with no initial
  // values): on a first visit (nothing stored yet) the initial open state and dock apply anyway.
  // Once per page and key: a remount (another thread) is not a first visit, even with storage blocked.
  useLayoutEffect(() => {
    if (firstVisitApplied.has(storageKey) || hasStoredState(storageKey)) return
    firstVisitApplied.add(storageKey)
    ui.setState({ open: initialIsOpen, ...(initialDock === undefined ? {} : { dock: initialDock }) })
  }, [ui, storageKey, initialIsOpen, initialDock])
  const open = useStore(ui, (state) => state.open)
  const parsed = useMemo(() => (shortcut === false ? undefined : parseShortcut(shortcut)), [shortcut])
  const toggleButton = useRef<HTMLButtonElement>(null)
  const returnFocusTo = useRef<Element | null>(null)
  const wasOpen = useRef(open)
  // Focus goes back where it came from when the panel closes (the toggle button, if that is gone).
  useEffect(() => {
    if (open && !wasOpen.current) {
      const active = deepActiveElement()
      returnFocusTo.current = active === globalThis.document?.body ? null : active
    }
    if (!open && wasOpen.current) {
      const target = returnFocusTo.current
      if (target instanceof HTMLElement && target.isConnected) target.focus()
      else (toggleButton.current ?? toggleRef?.current)?.focus()
    }
    wasOpen.current = open
  }, [open])

  // The panel's other tabs download once the user has interacted with the page (see tab-loaders).
  useEffect(listenForFirstInteraction, [])

  useEffect(() => {
    if (parsed === undefined) return
    const onKey = (event: KeyboardEvent) => {
      if (!matchesShortcut(event, parsed)) return
      event.preventDefault()
      ui.getState().toggle()
    }
    globalThis.addEventListener('keydown', onKey)
    return () => globalThis.removeEventListener('keydown', onKey)
  }, [parsed, ui])

  return (
    <ShadowHost style={{ all: 'initial' }} testId="threadlens-devtools">
      <style>{shellCss}</style>
      <ShellBoundary ui={ui} open={open}>
        {open ? (
          <DockFrame ui={ui}>
            <LazyPanel {...props} ui={ui} controls={<DockControls ui={ui} onClose={() => ui.getState().setOpen(false)} />} />
          </DockFrame>
        ) : showToggle ? (
          <button
            ref={toggleButton}
            type="button"
            className={`tl-toggle tl-toggle-${buttonPosition}`}
            data-testid="devtools-toggle"
            aria-label="Open threadlens devtools"
            aria-expanded={false}
            title={parsed === undefined ? 'threadlens devtools' : `threadlens devtools (${String(shortcut)})`}
            onClick={() => ui.getState().setOpen(true)}
          >
            <span className="tl-lens" aria-hidden="true" />
            threadlens
          </button>
        ) : null}
      </ShellBoundary>
    </ShadowHost>
  )
}

/** Even the frame and its controls failing leaves the app running: a note in a corner says so, and can close the devtools. */
function ShellBoundary({ ui, open, children }: { readonly ui: DevtoolsUiStore; readonly open: boolean; readonly children: ReactNode }) {
  return (
    <ThreadlensErrorBoundary
      label="the threadlens devtools"
      resetKeys={[open]}
      fallback={(failure) => (
        <div className="tl-failure tl-shell-failure" data-testid="devtools-failure">
          <ThreadlensErrorFallback {...failure} className="" />
          <button type="button" onClick={() => ui.getState().setOpen(false)}>
            close the devtools
          </button>
        </div>
      )}
    >
      {children}
    </ThreadlensErrorBoundary>
  )
}

const firstVisitApplied = new Set<string>()

/** Whether this storage key holds a remembered state (false on a first visit, or when storage is blocked). */
function hasStoredState(storageKey: string): boolean {
  try {
    return globalThis.localStorage?.getItem(storageKey) != null
  } catch {
    return false
  }
}

/** The focused element, looking inside open shadow roots (the devtools' own buttons live in one). */
function deepActiveElement(): Element | null {
  let active = globalThis.document?.activeElement ?? null
  while (active?.shadowRoot?.activeElement != null) active = active.shadowRoot.activeElement
  return active
}
