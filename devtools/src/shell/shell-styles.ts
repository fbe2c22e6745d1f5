import { Z_INDEX } from '../constants'

// The shell's own small stylesheet (button, dock frame, resize handle), in the shadow root. The
// loading text is set in the panel's fonts: the first text laid out in a font family costs several
// milliseconds on some systems (font matching), paid there while the panel's first read runs rather
// than in the panel's first frame.
export const shellCss = `
:host { all: initial; }
.tl-toggle { all: initial; position: fixed; z-index: ${Z_INDEX}; display: flex; align-items: center; gap: 6px; cursor: pointer;
  font: 600 12px/1 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #fff; background: #1f2630; border: 1px solid #3a4350;
  border-radius: 18px; padding: 8px 12px; box-shadow: 0 2px 10px rgba(0,0,0,.3); }
.tl-toggle:hover, .tl-toggle:focus-visible { border-color: #5b9dff; outline: none; }
.tl-toggle-top-left { top: 12px; left: 12px; } .tl-toggle-top-right { top: 12px; right: 12px; }
.tl-toggle-bottom-left { bottom: 12px; left: 12px; } .tl-toggle-bottom-right { bottom: 12px; right: 12px; }
.tl-lens { width: 10px; height: 10px; border-radius: 50%; border: 2px solid #5b9dff; }
.tl-frame { position: fixed; z-index: ${Z_INDEX}; box-sizing: border-box; background: #161a20; box-shadow: 0 -2px 16px rgba(0,0,0,.35); display: flex; }
.tl-frame-bottom { left: 0; right: 0; bottom: 0; flex-direction: column; }
.tl-frame-right { top: 0; right: 0; bottom: 0; flex-direction: row; }
.tl-resize { flex: none; background: #2c333d; touch-action: none; }
.tl-resize:hover, .tl-resize:focus-visible { background: #5b9dff; outline: none; }
.tl-frame-bottom .tl-resize { height: 4px; cursor: ns-resize; }
.tl-frame-right .tl-resize { width: 4px; cursor: ew-resize; }
.tl-frame-floating { flex-direction: column; border: 1px solid #3a4350; border-radius: 8px; overflow: hidden; box-shadow: 0 8px 32px rgba(0,0,0,.45); }
.tl-frame-floating .tl-resize-corner { position: absolute; right: 0; bottom: 0; width: 14px; height: 14px; cursor: nwse-resize;
  background: linear-gradient(135deg, transparent 50%, #5b6574 50%); }
.tl-frame-floating .tl-resize-corner:hover, .tl-frame-floating .tl-resize-corner:focus-visible { background: linear-gradient(135deg, transparent 50%, #5b9dff 50%); }
.tl-controls { display: inline-flex; gap: 4px; align-items: center; position: relative; flex: none; }
/* Why the right dock is not shown on this window: a note under the buttons, over the panel, for a few seconds. */
.tl-dock-note:not(:empty) { position: absolute; right: 0; top: calc(100% + 6px); z-index: 1; width: max-content; max-width: min(320px, calc(100vw - 24px));
  font: 12px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #f3c566; background: #2a2414; border: 1px solid #6b5520; border-radius: 6px; padding: 6px 8px; white-space: normal; }
.tl-move { cursor: move; touch-action: none; }
.tl-frame-body { flex: 1; min-width: 0; min-height: 0; display: flex; }
.tl-loading { all: initial; color: #8b95a3; font: 12px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK JP', sans-serif; padding: 12px; }
.tl-loading-thread { font: 11.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tl-control { all: initial; cursor: pointer; color: #dfe4ea; font: 12px system-ui, sans-serif; padding: 2px 7px; border: 1px solid #2c333d; border-radius: 5px; background: #222831; }
.tl-control[aria-pressed="true"] { border-color: #5b9dff; }
.tl-control:hover { border-color: #5b9dff; }
.tl-control:focus-visible, .tl-resize:focus-visible, .tl-toggle:focus-visible { outline: 2px solid #5b9dff; outline-offset: 1px; }
/* A part of the devtools that failed to render: the panel's own, and the tabs' (see ThreadlensErrorBoundary). */
.tl-failure { font: 12px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: #161a20; color: #dfe4ea; border: 1px solid #7a3b38; border-radius: 6px; padding: 8px 10px; margin: 8px 0; overflow-wrap: anywhere; }
.tl-failure p { margin: 0 0 6px; }
.tl-failure button { cursor: pointer; color: #dfe4ea; font: inherit; padding: 2px 8px; border: 1px solid #3a4350; border-radius: 5px; background: #222831; }
.tl-failure button:hover, .tl-failure button:focus-visible { border-color: #5b9dff; }
.tl-failure summary { cursor: pointer; color: #aeb6c2; }
.tl-failure pre { font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #c5ccd6; }
.tl-panel-failure { flex: 1; min-width: 0; overflow: auto; padding: 6px 10px; }
.tl-panel-failure > .tl-controls { float: right; }
.tl-shell-failure { position: fixed; z-index: ${Z_INDEX}; right: 12px; bottom: 12px; max-width: min(420px, calc(100vw - 24px)); max-height: 60vh; overflow: auto; }
`
