import { ThreadlensDevtools as Devtools, type ThreadlensDevtoolsProps } from './shell/devtools'
import { ThreadlensDevtoolsPanel as Panel, type ThreadlensDevtoolsPanelProps } from './shell/embedded-panel'

// As @tanstack/react-query-devtools: in a production build these render nothing, and the bundler
// drops the shell and the panel chunk. Ship them on purpose with `@threadlens/devtools/production`.
const isProduction = process.env.NODE_ENV === 'production'

/** Floating toggle + dockable panel. Renders nothing when `process.env.NODE_ENV === 'production'`. */
export const ThreadlensDevtools: (props: ThreadlensDevtoolsProps) => ReturnType<typeof Devtools> | null = isProduction ? () => null : Devtools

/** The embeddable panel. Renders nothing when `process.env.NODE_ENV === 'production'`. */
export const ThreadlensDevtoolsPanel: (props: ThreadlensDevtoolsPanelProps) => ReturnType<typeof Panel> | null = isProduction ? () => null : Panel

// Repeated on purpose: devtools/src/production.ts lists the same exports (each entry names its exports; the public-API check reads them).
export type { ThreadlensDevtoolsProps } from './shell/devtools'
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
