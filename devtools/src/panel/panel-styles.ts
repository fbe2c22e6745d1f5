import { darkPartVariables } from '../meter/meter-styles'

// The panel's stylesheet, put inside the devtools' shadow root: nothing leaks out, and `all: initial`
// on the root keeps the host app's inherited styles (fonts, colors, line height) from leaking in.
export const panelCss = `
.tl-root { all: initial; display: flex; flex-direction: column; height: 100%; width: 100%; box-sizing: border-box;
  font: 12px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK JP', sans-serif;
  color: #dfe4ea; background: #161a20; overflow: hidden;
  /* Muted text stays at 4.5:1 or more on every background of the panel, selected rows included. */
  --tl-border: #2c333d; --tl-muted: #a3adba; --tl-accent: #5b9dff; --tl-amber: #e0a030; --tl-red: #e5534b; --tl-green: #3fb37f;
  ${darkPartVariables}
  container: tl-root / inline-size; }
.tl-root *, .tl-root *::before, .tl-root *::after { box-sizing: border-box; }
.tl-root button, .tl-root select, .tl-root input, .tl-root textarea { font: inherit; color: inherit; }
.tl-header { display: flex; align-items: center; gap: 10px; padding: 6px 10px; border-bottom: 1px solid var(--tl-border); flex-wrap: wrap; }
.tl-title { font-weight: 700; letter-spacing: .02em; font-size: 12px; margin: 0; }
.tl-thread-title { min-width: 0; max-width: 40ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-muted { color: var(--tl-muted); }
.tl-grow { flex: 1; min-width: 0; }
.tl-tabs { display: flex; gap: 2px; padding: 0 6px; border-bottom: 1px solid var(--tl-border); overflow-x: auto; }
.tl-tab { background: none; border: 0; border-bottom: 2px solid transparent; padding: 6px 10px; cursor: pointer; color: var(--tl-muted); white-space: nowrap; }
.tl-tab[aria-selected="true"] { color: #fff; border-bottom-color: var(--tl-accent); }
.tl-tab:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
/* The tabs are one row at every width: a narrow panel scrolls it sideways (the selected tab is scrolled into view). */
.tl-tabs { flex: none; position: relative; scrollbar-width: thin; scrollbar-color: #3a4350 transparent; }
/* A narrow panel (a phone) keeps its header to one row: the title, the thread's name and the policy
   menu's label are left to screen readers, an idle session's badge is left out, the menu and meter shrink. */
@container tl-root (max-width: 600px) {
  .tl-tab { padding: 5px 8px; }
  .tl-header:not(.tl-session-bar) { flex-wrap: nowrap; gap: 6px; padding: 4px 6px; }
  .tl-header .tl-wide-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  .tl-header .tl-badge.tl-ok.tl-wide-only { display: none; }
  .tl-header .tl-policy { flex: 0 1 auto; min-width: 0; flex-wrap: nowrap; }
  .tl-header .tl-policy .tl-select { max-width: 8.5em; padding: 3px 4px; }
  .tl-header .tl-meter { min-width: 0; flex: 0 1 auto; overflow: hidden; }
  .tl-header .tl-meter-bar { flex: 0 1 40px; min-width: 24px; }
  .tl-header .tl-meter-fill, .tl-header .tl-meter-unit { display: none; }
  .tl-header .tl-grow { display: none; }
  .tl-header > .tl-meter { margin-left: auto; }
  /* A badge that does not fit (the preview, the partial read) is cut with "…": its tooltip says it whole. */
  .tl-header > .tl-badge { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
}
/* Every tab lays itself out by the panel's width, not the window's: the panel may be docked, floating or embedded. */
.tl-body { flex: 1; min-height: 0; display: flex; flex-direction: column; overflow: auto; padding: 8px 10px; gap: 8px; container: tl-body / inline-size; }
.tl-body.tl-fill { overflow: hidden; }
.tl-body:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
.tl-button, .tl-select, .tl-input { background: #222831; border: 1px solid var(--tl-border); border-radius: 5px; padding: 3px 8px; }
.tl-button { cursor: pointer; }
.tl-select, .tl-input { max-width: 100%; min-width: 0; text-overflow: ellipsis; }
.tl-button:hover { border-color: var(--tl-accent); }
.tl-button[aria-pressed="true"], .tl-button[aria-checked="true"] { background: #24406b; border-color: var(--tl-accent); }
.tl-button:focus-visible, .tl-select:focus-visible, .tl-input:focus-visible, .tl-scroll:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: 1px; }
.tl-row { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.tl-badge { display: inline-block; border-radius: 9px; padding: 0 7px; font-size: 11px; background: #2a313b; color: #cfd6df; white-space: nowrap; }
.tl-badge.tl-warn { background: #4a3a17; color: #f3c566; }
.tl-badge.tl-danger { background: #4d1f1d; color: #ff938c; }
.tl-badge.tl-ok { background: #163a2b; color: #7fdcaf; }
.tl-badge.tl-info { background: #1b3152; color: #9cc3ff; }
/* The last call at a glance (a button to the Calls tab): wraps on a wide panel, one line cut with … on a narrow one (all of it in the tooltip and in Calls). */
.tl-root .tl-last-call { all: unset; box-sizing: border-box; display: block; width: 100%; padding: 4px 10px; border-bottom: 1px solid var(--tl-border); font-size: 11.5px; line-height: 1.45; color: #cfd6df; cursor: pointer; }
.tl-last-call:hover { background: #1d2430; }
.tl-last-call:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
.tl-root .tl-last-call-title { font-weight: 600; color: #dfe4ea; }
.tl-last-call-fact.tl-ok { color: #7fdcaf; } .tl-last-call-fact.tl-warn { color: #f3c566; } .tl-last-call-fact.tl-danger { color: #ff938c; }
@container tl-root (max-width: 600px) { .tl-root .tl-last-call { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } }
.tl-pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 11.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tl-text { white-space: pre-wrap; word-break: break-word; }
.tl-more { margin-left: 6px; background: none; border: 0; color: var(--tl-accent); cursor: pointer; padding: 0; font: 11px system-ui, sans-serif; }
.tl-mono { font: 11.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tl-scroll { flex: 1; min-height: 0; overflow: auto; contain: strict; container-type: inline-size; }
.tl-segment { border: 1px solid var(--tl-border); border-radius: 6px; margin-bottom: 8px; container-type: inline-size; }
.tl-segment > h3 { margin: 0; padding: 4px 8px; font-size: 11px; text-transform: uppercase; letter-spacing: .06em; border-bottom: 1px solid var(--tl-border); display: flex; gap: 8px; }
.tl-message { padding: 6px 8px; border-top: 1px solid #20262e; display: grid; grid-template-columns: 84px minmax(0, 1fr) max-content; gap: 8px; }
.tl-message:first-of-type { border-top: 0; }
.tl-role { font-weight: 600; }
.tl-message > :first-child { min-width: 0; overflow-wrap: anywhere; }
.tl-tokens { text-align: right; color: var(--tl-muted); font: 11px ui-monospace, monospace; }
/* The header's meter: a short bar and its numbers on one line beside the policy menu. */
.tl-header .tl-meter { flex-wrap: nowrap; }
.tl-header .tl-meter-bar { flex: 0 1 clamp(60px, 18vw, 180px); }
.tl-swatch { width: 12px; height: 12px; border-radius: 3px; }
.tl-num { font: 11.5px ui-monospace, monospace; text-align: right; }
.tl-timeline-row { display: grid; grid-template-columns: 52px 82px minmax(40px, 130px) minmax(0, 1fr) max-content 44px; gap: 8px; align-items: center; height: 100%; padding: 0 6px;
  border-bottom: 1px solid #1d232b; cursor: pointer; white-space: nowrap; }
.tl-timeline-row:hover, .tl-timeline-row:focus-visible { background: #1d2430; outline: none; }
.tl-timeline-row[aria-current="true"] { background: #22324a; }
.tl-timeline-row > span { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.tl-timeline-row > span:nth-child(5) { overflow: visible; }
.tl-kind { font: 11px ui-monospace, monospace; color: #b9c3cf; }
.tl-split { display: flex; gap: 10px; flex: 1; min-height: 0; }
.tl-split > * { flex: 1; min-width: 0; display: flex; flex-direction: column; min-height: 0; }
.tl-detail { border-left: 1px solid var(--tl-border); padding-left: 10px; overflow: auto; max-width: 45%; }
.tl-card { border: 1px solid var(--tl-border); border-radius: 6px; padding: 8px; }
.tl-field { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 15em); gap: 8px; align-items: center; margin: 3px 0; }
.tl-field .tl-input, .tl-field .tl-select { width: 100%; min-width: 0; }
.tl-field input[type="checkbox"] { justify-self: start; }
.tl-table { border-collapse: collapse; width: 100%; }
.tl-table td, .tl-table th { text-align: left; padding: 3px 8px; border-bottom: 1px solid #20262e; vertical-align: top; }
.tl-error { color: #ff938c; }
.tl-call-row { display: grid; grid-template-columns: 40px 1fr 110px 90px; gap: 8px; padding: 0 6px; align-items: center; height: 100%; cursor: pointer; border-bottom: 1px solid #1d232b; white-space: nowrap; }
.tl-call-row[aria-current="true"] { background: #22324a; }
.tl-call-row:hover, .tl-call-row:focus-visible { background: #1d2430; outline: none; }
.tl-calls { flex-wrap: wrap; overflow: auto; }
.tl-calls > * { flex: 1 1 340px; }
.tl-calls-list { container-type: inline-size; gap: 6px; min-height: 220px; }
.tl-trace-row, .tl-trace-head { grid-template-columns: 58px 58px minmax(60px, 1fr) 104px 148px 92px 64px; font-size: 11px; }
.tl-trace-row { height: auto; min-height: 26px; }
.tl-trace-row > *, .tl-trace-figures > * { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.tl-trace-figures { display: contents; }
.tl-trace-head { display: grid; gap: 8px; padding: 2px 6px; color: var(--tl-muted); align-items: end; line-height: 1.25; border-bottom: 1px solid var(--tl-border); }
.tl-calls > section > p { margin: 6px 0; }
.tl-calls > section > .tl-detail-title { margin: 0 0 2px; }
.tl-calls > section > .tl-detail-subtitle { margin: 0 0 6px; }
.tl-trace-list { min-height: min(136px, 100%); flex: 1 0 136px; }
.tl-ellipsis { overflow: hidden; text-overflow: ellipsis; }
/* Narrow (under the 632 px the columns need): each row stacks, status and what it answered on one line, every figure labelled under it. */
@container (max-width: 640px) {
  .tl-trace-head { display: none; }
  .tl-trace-row { grid-template-columns: auto minmax(0, 1fr); grid-auto-flow: row; row-gap: 1px; padding: 3px 6px; white-space: normal; }
  .tl-trace-row > :nth-child(1) { display: none; }
  .tl-trace-row > :nth-child(3) { white-space: nowrap; }
  .tl-trace-figures { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0 12px; }
  .tl-trace-figures > [data-label]::before { content: attr(data-label) ' '; color: var(--tl-muted); font-family: system-ui, sans-serif; }
  /* Stacked rows are two lines: up to six in view. */
  .tl-split.tl-calls .tl-calls-list .tl-trace-list { height: calc(min(var(--tl-rows, 6), 6) * 36px + 2px); }
}
.tl-view-item { padding: 5px 8px; border-bottom: 1px solid #1d232b; }
.tl-h { margin: 0 0 6px; font-size: 12px; font-weight: 600; }
/* Narrow panels (a phone, a side column): detail panes go under their list, not beside it. */
@container tl-body (max-width: 720px) {
  .tl-split { flex-direction: column; }
  .tl-split > .tl-detail { max-width: none; max-height: 50%; flex: none; border-left: 0; padding-left: 0; border-top: 1px solid var(--tl-border); padding-top: 8px; }
  /* Calls: the trace list, then the selected call, one under the other, the tab scrolling as a whole. */
  .tl-split.tl-calls { flex-wrap: nowrap; }
  .tl-split.tl-calls > * { flex: none; }
  /* Up to nine rows of the trace in view (fewer when there are fewer), the detail under them. */
  .tl-split.tl-calls .tl-trace-list { flex: none; height: calc(min(var(--tl-rows, 9), 9) * 26px + 2px); min-height: 0; }
}
/* A narrow message list puts the text under its role and token count, at full width. */
@container (max-width: 480px) {
  .tl-message { grid-template-columns: minmax(0, 1fr) max-content; }
  .tl-message > :nth-child(2) { grid-column: 1 / -1; grid-row: 2; }
}
@container tl-body (max-width: 480px) {
  .tl-field { grid-template-columns: minmax(0, 1fr) minmax(0, 11em); }
}
/* A narrow timeline's columns (seq, fate, preview, tokens; the kind in the detail) are in insight-styles. */
`
