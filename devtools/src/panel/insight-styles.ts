// Styles of the content views (context map, left-out list, diffs, token colouring). Width-agnostic:
// everything wraps or stacks; the panel frame adds its own container-query layout around them.
export const insightCss = `
.tl-context { display: flex; flex-direction: column; gap: 6px; flex: none; }
.tl-context > p { margin: 0; }
.tl-tile-label:first-child { padding-top: 2px; }
.tl-map { position: relative; width: 100%; aspect-ratio: 2 / 1; max-height: 280px; min-height: 120px; border-radius: 4px; overflow: hidden; background: var(--part-free); }
.tl-tile { position: absolute; margin: 0; padding: 0; border: 0; box-shadow: inset 0 0 0 1px #161a20; border-radius: 0; min-width: 0; min-height: 0; overflow: hidden; cursor: pointer;
  display: flex; flex-direction: column; align-items: flex-start; justify-content: flex-start; text-align: left; color: #0b0f14; font-size: 11px; line-height: 1.25; }
.tl-tile:focus-visible, .tl-link:focus-visible, .tl-fate-chip:focus-visible, .tl-lab-item:focus-visible { outline: 2px solid #fff; outline-offset: -2px; z-index: 1; }
.tl-tile[aria-pressed="true"] { outline: 2px solid #fff; outline-offset: -3px; z-index: 1; }
.tl-tile-label { padding: 0 4px; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-tile-tools { background: var(--part-tools); } .tl-tile-system { background: var(--part-system); } .tl-tile-memory { background: var(--part-memory); }
.tl-tile-summary { background: var(--part-summary); } .tl-tile-history { background: var(--part-history); } .tl-tile-recall { background: var(--part-recall); } .tl-tile-pending { background: var(--part-pending); }
.tl-tile-free { background: var(--part-free); color: #c5ced9; }
/* Over '.tl-root button { color: inherit }': dark text on the coloured tiles, light on the free one. */
.tl-root .tl-tile { color: #0b0f14; } .tl-root .tl-tile-free { color: #c5ced9; }
.tl-reserved { display: flex; align-items: center; gap: 6px; color: var(--tl-muted); }
.tl-inline-swatch { display: inline-block; vertical-align: -2px; }
.tl-nowrap { white-space: nowrap; }
.tl-largest, .tl-block-list, .tl-left-out-list { margin: 0; padding-left: 20px; display: flex; flex-direction: column; gap: 3px; }
.tl-block-list, .tl-left-out-list { padding-left: 0; list-style: none; }
/* Findings (Tokens tab): one sentence each, its kind as a badge, its entry a link. */
.tl-findings { margin: 0; padding-left: 0; list-style: none; display: flex; flex-direction: column; gap: 4px; }
.tl-finding { overflow-wrap: anywhere; line-height: 1.5; }
.tl-link { background: none; border: 0; padding: 0 2px; color: #9cc3ff; cursor: pointer; text-align: left; font: inherit; }
.tl-link:hover { text-decoration: underline; }
.tl-largest-item { display: flex; gap: 6px; align-items: baseline; max-width: 100%; white-space: nowrap; }
.tl-largest-item > * { flex: none; }
.tl-largest-item > .tl-one-line { flex: 1 1 auto; }
.tl-preview { color: #c5ced9; overflow-wrap: anywhere; }
.tl-one-line { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.tl-left-out-group { border-top: 1px solid #20262e; padding: 4px 0; }
.tl-left-out-group:first-of-type { border-top: 0; }
.tl-fate-chip { background: #222831; border: 1px solid var(--tl-border); border-radius: 10px; padding: 1px 8px; cursor: pointer; font-size: 11px; }
.tl-fate-chip[aria-checked="true"] { background: #24406b; border-color: var(--tl-accent); color: #fff; }
.tl-diff-columns { display: flex; flex-wrap: wrap; gap: 10px; }
.tl-diff-columns > * { flex: 1 1 260px; min-width: 0; }
.tl-lab-item { display: grid; grid-template-columns: auto 1fr auto; gap: 2px 8px; padding: 3px 6px; border-left: 3px solid transparent; border-bottom: 1px solid #1d232b; }
.tl-lab-item[data-change="entering"] { border-left-color: var(--tl-green); background: #14261f; }
.tl-lab-item[data-change="leaving"] { border-left-color: var(--tl-red); background: #2a1718; }
.tl-lab-item[data-change="changed"] { border-left-color: var(--tl-amber); background: #2a2415; }
.tl-change { font-size: 11px; font-weight: 600; white-space: nowrap; }
.tl-change-entering { color: #7fdcaf; } .tl-change-leaving { color: #ff938c; } .tl-change-changed { color: #f3c566; }
.tl-lab-item > .tl-largest-item { display: flex; gap: 6px; align-items: baseline; max-width: 100%; white-space: nowrap; }
.tl-largest-item > * { flex: none; }
.tl-largest-item > .tl-one-line { flex: 1 1 auto; }
.tl-preview { grid-column: 1 / -1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-lab-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); gap: 4px 14px; }
.tl-lab-form .tl-field { grid-template-columns: minmax(0, 1fr) minmax(80px, 160px); }
.tl-lab-form .tl-field .tl-input, .tl-lab-form .tl-field .tl-select { width: 100%; max-width: none; }
.tl-token { border-radius: 2px; }
.tl-token-0 { background: #27406a; } .tl-token-1 { background: #4a3a17; } .tl-token-2 { background: #163a2b; } .tl-token-3 { background: #4d1f3b; } .tl-token-4 { background: #33305a; }
.tl-view-explain { margin: 0 0 4px; color: var(--tl-muted); }
.tl-view-conversation .tl-view-item { border-left: 3px solid var(--tl-accent); }
.tl-view-reasoning .tl-view-item { border-left: 3px solid var(--part-tools); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 11.5px; }
.tl-bubble-user { background: #1b2a40; border-radius: 8px; padding: 4px 8px; }
.tl-bubble-assistant { background: #20262e; border-radius: 8px; padding: 4px 8px; }
.tl-root .tl-timeline-row { grid-template-columns: 52px minmax(64px, 136px) 80px minmax(0, 1fr) 52px; }
/* Read by assistive technology, not drawn. */
.tl-visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
/* Greyed by colour, not opacity: left-out rows stay readable (contrast) and their badges keep their colours. */
.tl-root .tl-timeline-row[data-state="dropped"], .tl-root .tl-timeline-row[data-state="summarized"] { opacity: 1; color: #9aa4b2; }
.tl-root .tl-timeline-row[data-state="dropped"] .tl-kind, .tl-root .tl-timeline-row[data-state="summarized"] .tl-kind { color: #9aa4b2; }
.tl-timeline-row[aria-current="true"] { background: #22324a; }
.tl-timeline-row:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
.tl-fate-cell { display: flex; gap: 3px; overflow: hidden; }
/* A fate longer than its column ("summarized (#10234)") ends in an ellipsis instead of being cut mid-character. */
.tl-fate-cell > * { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tl-timeline-host { container-type: inline-size; flex: 1; min-height: 0; display: flex; flex-direction: column; }
@container (max-width: 640px) {
  .tl-timeline-host .tl-split { flex-direction: column; }
  .tl-timeline-host .tl-detail { max-width: none; max-height: 50%; border-left: 0; border-top: 1px solid var(--tl-border); padding: 6px 0 0; }
  /* The fate column no wider than its usual badges, so the text preview keeps the room. */
  .tl-root .tl-timeline-row { grid-template-columns: 40px 96px minmax(0, 1fr) 44px; }
  .tl-timeline-row > .tl-kind { display: none; }
}
/* A phone: the usual badges (included, masked, budget) still fit; longer fates end in an ellipsis (the row's tooltip has them whole). */
@container (max-width: 420px) {
  .tl-root .tl-timeline-row { grid-template-columns: 34px 84px minmax(0, 1fr) 36px; gap: 6px; }
}
/* Cache breakpoints: place, why, size and TTL on one line; when narrow, the why goes under them. */
.tl-bp-caption { margin: 6px 0 2px; }
.tl-bp-list { list-style: none; margin: 0; padding: 0; container-type: inline-size; }
.tl-bp { display: grid; grid-template-columns: minmax(0, 15em) minmax(0, 1fr) max-content max-content; gap: 2px 10px; align-items: baseline; padding: 3px 0; border-bottom: 1px solid #20262e; }
@container (max-width: 480px) {
  .tl-bp { grid-template-columns: minmax(0, 1fr) max-content max-content; }
  .tl-bp-why { grid-column: 1 / -1; grid-row: 2; color: var(--tl-muted); }
}
.tl-break-text { max-height: 8em; overflow: auto; background: #11151a; border: 1px solid var(--tl-border); border-radius: 4px; padding: 4px 6px; }
.tl-root .tl-select { max-width: 100%; min-width: 0; }
.tl-call-row[aria-current="true"] { background: #22324a; }
.tl-call-row:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
.tl-button[role="radio"][aria-checked="true"] { background: #24406b; border-color: var(--tl-accent); color: #fff; }
.tl-button:focus-visible, .tl-more:focus-visible { outline: 2px solid var(--tl-accent); outline-offset: 1px; }
.tl-token-text { line-height: 1.7; }
/* Muted text on a selected row's blue stays above 4.5:1. */
.tl-timeline-row[aria-current="true"] .tl-tokens, .tl-timeline-row[aria-current="true"] .tl-muted, .tl-call-row[aria-current="true"] .tl-muted { color: #b6c0cc; }
`
