import { meterVariables, partVariables } from './meter-palette'

const sans = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK JP', sans-serif`
const mono = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'

/**
 * The token meter's stylesheet: every rule is scoped by a `tl-meter` class, and the `tl-part-*`
 * fills are the ones the panel's tabs use too. The panel puts it in its shadow root; an app's meter
 * (`ThreadlensTokenMeter`) in a shadow root of its own, with `meterHostCss`.
 */
export const meterCss = `
.tl-meter { ${meterVariables('light')}
  display: flex; align-items: center; gap: 4px 8px; flex-wrap: wrap; min-width: 0; box-sizing: border-box; text-align: left;
  font: 12px/1.45 ${sans}; color: var(--tl-meter-text); }
.tl-meter[data-scheme="dark"] { ${meterVariables('dark')} }
.tl-meter *, .tl-meter *::before, .tl-meter *::after { box-sizing: border-box; }
.tl-meter-full { flex-direction: column; align-items: stretch; gap: 6px; }
.tl-meter-line { display: flex; align-items: center; gap: 4px 10px; flex-wrap: wrap; min-width: 0; }
.tl-meter-bar { display: flex; flex: 1 1 60px; min-width: 60px; height: 10px; border-radius: 5px; overflow: hidden; background: var(--part-free); box-shadow: inset 0 0 0 1px var(--tl-meter-edge); }
.tl-meter-full .tl-meter-bar { flex-basis: 120px; height: 14px; border-radius: 4px; }
.tl-meter-numbers { font: 12px/1.45 ${mono}; white-space: nowrap; }
.tl-meter-full .tl-meter-numbers { font: 13px/1.45 ${sans}; }
.tl-meter-full .tl-meter-numbers strong { font-weight: 700; }
.tl-meter-level-amber .tl-meter-fill { color: var(--tl-meter-amber); }
.tl-meter-level-red .tl-meter-fill { color: var(--tl-meter-red); font-weight: 600; }
.tl-meter-muted { color: var(--tl-meter-muted); }
.tl-meter-badge { display: inline-block; border-radius: 9px; padding: 0 7px; font-size: 11px; white-space: nowrap; background: var(--tl-meter-info-bg); color: var(--tl-meter-info); }
.tl-meter-badge-ok { background: var(--tl-meter-ok-bg); color: var(--tl-meter-ok); }
.tl-meter-badge-warn { background: var(--tl-meter-warn-bg); color: var(--tl-meter-warn); }
.tl-meter-badge-danger { background: var(--tl-meter-danger-bg); color: var(--tl-meter-danger); }
.tl-meter-reserved { display: inline-flex; align-items: center; gap: 4px; color: var(--tl-meter-muted); font-size: 11px; white-space: nowrap; }
.tl-meter-legend { display: flex; flex-wrap: wrap; gap: 2px 14px; list-style: none; margin: 0; padding: 0; }
.tl-meter-legend > li { display: inline-flex; align-items: center; gap: 5px; white-space: nowrap; }
.tl-meter-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; flex: none; box-shadow: inset 0 0 0 1px var(--tl-meter-edge); }
.tl-meter-number { font: 11.5px ${mono}; }
.tl-part { height: 100%; }
.tl-part-system { background: var(--part-system); } .tl-part-memory { background: var(--part-memory); } .tl-part-summary { background: var(--part-summary); }
.tl-part-history { background: var(--part-history); } .tl-part-recall { background: var(--part-recall); } .tl-part-pending { background: var(--part-pending); } .tl-part-tools { background: var(--part-tools); }
.tl-part-reserved { background: repeating-linear-gradient(45deg, var(--part-reserved), var(--part-reserved) 4px, var(--part-reserved-stripe) 4px, var(--part-reserved-stripe) 8px); }
.tl-part-free { background: var(--part-free); }
`

/**
 * The shadow host of an app's meter: the app's inherited styles (font, colour, letter spacing, …)
 * stop there, visibility still follows the page, and the meter fills the box the app gives it.
 */
export const meterHostCss = `
:host { all: initial; display: block; min-width: 0; visibility: inherit; }
.tl-meter { width: 100%; }
`

/** The part colours of the dark scheme, for the panel's own tabs (swatches, the treemap). */
export const darkPartVariables = partVariables('dark')
