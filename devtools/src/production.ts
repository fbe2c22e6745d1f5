// The devtools with no production guard: import from `@threadlens/devtools/production` to ship
// them in a production build on purpose (the root export renders nothing there).
// Repeated on purpose: the list below is devtools/src/index.ts's (each entry names its exports; the public-API check reads them).
export { ThreadlensDevtools } from './shell/devtools'
export type { ThreadlensDevtoolsProps } from './shell/devtools'
export { ThreadlensDevtoolsPanel } from './shell/embedded-panel'
export type { ThreadlensDevtoolsPanelProps } from './shell/embedded-panel'
export type { DevtoolsPanelProps, DevtoolsSyncSource, DevtoolsSyncStatus, PolicyChoice } from './panel/panel-props'
export { openDevtools, closeDevtools, toggleDevtools } from './view-models/ui-state'
export { useDevtoolsOpen } from './shell/use-devtools-open'
export { RESERVED_BOTTOM_PROPERTY, RESERVED_RIGHT_PROPERTY } from './shell/reserved-space'
export { DevtoolsAttachmentLoader } from './components/message-attachments'
export type { ButtonPosition, DockPosition } from './constants'
export type { TabId } from './panel/tab-registry'
// The token meter is an app component: it renders in production builds too (no production guard).
export { ThreadlensTokenMeter } from './meter/token-meter'
export type { ThreadlensTokenMeterProps } from './meter/token-meter'
export type { TokenMeterVariant } from './meter/meter-view'
export type { MeterColorScheme } from './meter/meter-palette'
