import { useEffect, useMemo } from 'react'
import { useStore } from 'zustand'
import { DEFAULT_BUTTON_POSITION, DEFAULT_SHORTCUT, DEFAULT_STORAGE_KEY, type ButtonPosition } from '../constants'
import { matchesShortcut, parseShortcut } from '../model/shortcut'
import { devtoolsUiStore } from '../model/ui-state'
import type { DevtoolsPanelProps } from '../panel/panel-props'
import { LazyPanel } from './lazy-panel'
import { ShadowHost } from './shadow-host'
import { shellCss } from './shell-styles'
import { clampSize, useResize } from './use-resize'

export interface ThreadlensDevtoolsProps extends DevtoolsPanelProps {
  /** Open on first visit (later visits remember the last state). Default false. */
  readonly initialIsOpen?: boolean
  /** Corner of the toggle button. Default `bottom-right`. */
  readonly buttonPosition?: ButtonPosition
  /** Keyboard shortcut that toggles the panel (`alt+shift+d`), or `false` for none. Default `alt+shift+d`. */
  readonly shortcut?: string | false
}

/**
 * A floating toggle button that opens a dockable (bottom/right), resizable devtools panel. The
 * panel body loads on first open. UI state (open, dock, size, tab) is kept in localStorage under
 * `storageKey`; `openDevtools()`, `closeDevtools()` and `toggleDevtools()` drive it from code.
 */
export function ThreadlensDevtools({ initialIsOpen = false, buttonPosition = DEFAULT_BUTTON_POSITION, shortcut = DEFAULT_SHORTCUT, ...props }: ThreadlensDevtoolsProps) {
  const storageKey = props.storageKey ?? DEFAULT_STORAGE_KEY
  const ui = devtoolsUiStore(storageKey, initialIsOpen)
  const open = useStore(ui, (state) => state.open)
  const dock = useStore(ui, (state) => state.dock)
  const size = useStore(ui, (state) => state.size)
  const parsed = useMemo(() => (shortcut === false ? undefined : parseShortcut(shortcut)), [shortcut])
  const resize = useResize(dock, size, (next) => ui.getState().setSize(next))

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

  const shown = clampSize(size, dock)
  return (
    <ShadowHost style={{ all: 'initial' }} testId="threadlens-devtools">
      <style>{shellCss}</style>
      {open ? (
        <div
          className={`tl-frame tl-frame-${dock}`}
          style={dock === 'bottom' ? { height: shown } : { width: shown }}
          data-testid="devtools-frame"
          data-dock={dock}
          role="dialog"
          aria-label="threadlens devtools"
        >
          <div className="tl-resize" role="separator" aria-orientation={dock === 'bottom' ? 'horizontal' : 'vertical'} aria-label="resize the devtools (arrow keys)" aria-valuenow={shown} tabIndex={0} data-testid="devtools-resize" {...resize} />
          <div className="tl-frame-body">
            <LazyPanel
              {...props}
              ui={ui}
              controls={
                <>
                  <button type="button" className="tl-control" aria-pressed={dock === 'bottom'} data-testid="dock-bottom" onClick={() => ui.getState().setDock('bottom')} title="dock to the bottom">
                    ▁
                  </button>
                  <button type="button" className="tl-control" aria-pressed={dock === 'right'} data-testid="dock-right" onClick={() => ui.getState().setDock('right')} title="dock to the right">
                    ▕
                  </button>
                  <button type="button" className="tl-control" data-testid="devtools-close" aria-label="Close threadlens devtools" onClick={() => ui.getState().setOpen(false)}>
                    ✕
                  </button>
                </>
              }
            />
          </div>
        </div>
      ) : (
        <button
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
