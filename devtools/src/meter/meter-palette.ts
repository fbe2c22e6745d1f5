import type { MeterPartKey } from '../view-models/meter-parts'

/** The page a token meter sits on: a light one (an app's, by default) or a dark one (the panel's). */
export type MeterColorScheme = 'light' | 'dark'

interface MeterPalette {
  /** Bar and swatch fills, one per part: the same hues on both schemes, tuned to their backgrounds. */
  readonly parts: Readonly<Record<MeterPartKey, string>>
  /** The reserved output's second stripe. */
  readonly reservedStripe: string
  /** Text colours: each reaches 4.5:1 (WCAG AA) on its scheme's background. */
  readonly text: string
  readonly muted: string
  readonly amber: string
  readonly red: string
  /** The bar's outline (its free part is close to a light page's background). */
  readonly edge: string
  /** Badges: background and text, 4.5:1 or more. */
  readonly badges: Readonly<Record<'ok' | 'warn' | 'danger' | 'info', readonly [background: string, text: string]>>
}

/** The one palette of the token meter's parts, used by the panel's tabs and by every meter an app renders. */
export const meterPalettes: Readonly<Record<MeterColorScheme, MeterPalette>> = {
  light: {
    parts: {
      system: '#5b6b82',
      memory: '#8e6bd1',
      summary: '#d08a2e',
      history: '#2f6fde',
      recall: '#08778f',
      pending: '#1f9d78',
      tools: '#c0548f',
      reserved: '#b9c1cc',
      free: '#eceff3',
    },
    reservedStripe: '#d5dae1',
    text: '#1c2430',
    muted: '#5f6875',
    amber: '#9a6412',
    red: '#b8322a',
    edge: '#dde1e7',
    badges: { ok: ['#e3f4ec', '#1d6b4e'], warn: ['#fbefd9', '#85560f'], danger: ['#fbe3e1', '#a82a21'], info: ['#e6eefc', '#2a5db8'] },
  },
  dark: {
    parts: {
      system: '#7d8ba1',
      memory: '#a685e2',
      summary: '#e0a030',
      history: '#5b9dff',
      recall: '#4cc9e0',
      pending: '#3fb37f',
      tools: '#d46fa8',
      reserved: '#4b535e',
      free: '#262c35',
    },
    reservedStripe: '#3a414b',
    text: '#dfe4ea',
    muted: '#a3adba',
    amber: '#e0a030',
    red: '#e5534b',
    edge: 'transparent',
    badges: { ok: ['#163a2b', '#7fdcaf'], warn: ['#4a3a17', '#f3c566'], danger: ['#4d1f1d', '#ff938c'], info: ['#1b3152', '#9cc3ff'] },
  },
}

/** The part colours as the `--part-*` custom properties every `tl-part-*` class reads. */
export function partVariables(scheme: MeterColorScheme): string {
  const palette = meterPalettes[scheme]
  return `${Object.entries(palette.parts)
    .map(([key, color]) => `--part-${key}: ${color};`)
    .join(' ')} --part-reserved-stripe: ${palette.reservedStripe};`
}

/** Every colour of one scheme as the custom properties the meter's stylesheet reads. */
export function meterVariables(scheme: MeterColorScheme): string {
  const palette = meterPalettes[scheme]
  const badges = Object.entries(palette.badges)
    .map(([kind, [background, text]]) => `--tl-meter-${kind}-bg: ${background}; --tl-meter-${kind}: ${text};`)
    .join(' ')
  return `${partVariables(scheme)} --tl-meter-text: ${palette.text}; --tl-meter-muted: ${palette.muted}; --tl-meter-amber: ${palette.amber}; --tl-meter-red: ${palette.red}; --tl-meter-edge: ${palette.edge}; ${badges}`
}
