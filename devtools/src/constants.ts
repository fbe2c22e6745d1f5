import { presets, type ContextPolicy } from '@threadlens/core'

// Every default of the devtools, in one place. Props and README state the same values.

/** Corner of the floating toggle button. */
export type ButtonPosition = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right'
export const DEFAULT_BUTTON_POSITION: ButtonPosition = 'bottom-right'

/** Where the panel sits: docked to the bottom or right edge, or floating over the page. */
export const dockPositions = ['bottom', 'right', 'floating'] as const
export type DockPosition = (typeof dockPositions)[number]
export const DEFAULT_DOCK: DockPosition = 'bottom'

/** A floating panel's box in CSS pixels (kept inside the viewport when shown). */
export interface FloatingRect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}
export const DEFAULT_FLOATING_RECT: FloatingRect = { x: 24, y: 24, width: 720, height: 480 }
/** Smallest width of a floating panel (its height's floor is `MIN_PANEL_SIZE`). */
export const MIN_FLOATING_WIDTH = 320
// Repeated on purpose: one named default a line, the same shape as the display defaults below and as
// packages/agent/src/model/constants.ts (each constant has its own meaning; a table would hide the names).
/** Pixels one arrow key press resizes or moves the panel by (Shift: five times that). */
export const KEYBOARD_STEP = 20

/** Panel height (bottom dock) or width (right dock) in CSS pixels. */
export const DEFAULT_PANEL_SIZE = 420
export const MIN_PANEL_SIZE = 200
/**
 * Narrowest viewport on which a right dock leaves the page usable beside it; below it a panel
 * docked right is shown at the bottom (the choice is kept and applies again on a wider window).
 */
export const RIGHT_DOCK_MIN_VIEWPORT = 640
/** Largest share of the viewport the panel may take when resized. */
export const MAX_PANEL_SHARE = 0.9
/**
 * Largest share of the viewport's height a bottom dock takes on a window narrower than
 * `RIGHT_DOCK_MIN_VIEWPORT` (a phone): the page keeps the other half for its conversation and input.
 */
export const NARROW_BOTTOM_MAX_SHARE = 0.5

/**
 * On a cold open the panel body waits for its first read (the thread's newest entries, started at
 * the click) as well as its chunk, so that it renders once with the thread instead of first as an
 * empty frame; past this many milliseconds after the chunk came in it shows without it.
 */
export const FIRST_READ_WAIT_MS = 250

/** Keyboard shortcut that toggles the panel: modifiers joined by `+`, then a key code letter/digit. */
export const DEFAULT_SHORTCUT = 'alt+shift+d'

/** localStorage key under which the UI state (open, dock, size, tab, filters) is remembered, per origin. */
export const DEFAULT_STORAGE_KEY = 'threadlens-devtools'

/** The policy inspected when neither a `policy` prop nor the session gives one. */
export function defaultPolicy(): ContextPolicy {
  return presets.shortContext()
}

// Repeated on purpose: same shape as the panel sizes above (one named default a line, each its own meaning).
/** Characters of a text shown before "show more". */
export const COLLAPSE_AFTER_CHARS = 600
/** Characters of a JSON block shown before "show more". */
export const COLLAPSE_JSON_AFTER_CHARS = 4000

/** Meter warning levels, as a share of the input budget (window minus reserved output) in use. */
export const METER_AMBER_RATIO = 0.75
export const METER_RED_RATIO = 0.9

/** Timeline row height in CSS pixels (fixed, so 10k rows virtualize cheaply). */
export const TIMELINE_ROW_HEIGHT = 26
/** Rows rendered beyond the visible ones, each side. */
export const LIST_OVERSCAN = 8

/** z-index of the floating button and the docked panel. */
export const Z_INDEX = 2147483000

/** How many of the newest calls the Calls tab replays through the prompt-cache simulator. */
export const CACHE_PREDICTION_CALLS = 100
