import { useEffect, useMemo, useRef } from 'react'
import { useStore } from 'zustand'
import { DEFAULT_BUTTON_POSITION, DEFAULT_SHORTCUT, DEFAULT_STORAGE_KEY, type ButtonPosition } from '../constants'
import { matchesShortcut, parseShortcut } from '../model/shortcut'
import { devtoolsUiStore } from '../model/ui-state'
import type { DevtoolsPanelProps } from '../panel/panel-props'
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
}

/**
 * A floating toggle button that opens a devtools panel docked bottom or right, or floating; drag or
 * arrow keys resize it. The panel body loads on first open. UI state (open, dock, size, tab,
 * filters) is kept in localStorage (per origin, checked on read) under
 * `storageKey`; `openDevtools()`, `closeDevtools()` and `toggleDevtools()` drive it from code.
 */
export function ThreadlensDevtools({ initialIsOpen = false, buttonPosition = DEFAULT_BUTTON_POSITION, shortcut = DEFAULT_SHORTCUT, ...props }: ThreadlensDevtoolsProps) {
  const storageKey = props.storageKey ?? DEFAULT_STORAGE_KEY
  const ui = devtoolsUiStore(storageKey, initialIsOpen)
  const open = useStore(ui, (state) => state.open)
  const parsed = useMemo(() => (shortcut === false ? undefined : parseShortcut(shortcut)), [shortcut])
  const toggleButton = useRef<HTMLButtonElement>(null)
  const returnFocusTo = useRef<Element | null>(null)
  const wasOpen = useRef(open)
  // Focus goes back where it came from when the panel closes (the toggle button, if that is gone).
  useEffect(() => {
    if (open && !wasOpen.current) returnFocusTo.current = deepActiveElement()
    if (!open && wasOpen.current) {
      const target = returnFocusTo.current
      if (target instanceof HTMLElement && target.isConnected) target.focus()
      else toggleButton.current?.focus()
    }
    wasOpen.current = open
  }, [open])

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
      {open ? (
        <DockFrame ui={ui}>
          <LazyPanel {...props} ui={ui} controls={<DockControls ui={ui} onClose={() => ui.getState().setOpen(false)} />} />
        </DockFrame>
      ) : (
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
      )}
    </ShadowHost>
  )
}

/** The focused element, looking inside open shadow roots (the devtools' own buttons live in one). */
function deepActiveElement(): Element | null {
  let active = globalThis.document?.activeElement ?? null
  while (active?.shadowRoot?.activeElement != null) active = active.shadowRoot.activeElement
  return active
}
