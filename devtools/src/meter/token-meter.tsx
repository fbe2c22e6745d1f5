import type { ProjectionMeta } from '@threadlens/core'
import type { HTMLAttributes } from 'react'
import { ShadowHost } from '../shell/shadow-host'
import type { MeterColorScheme } from './meter-palette'
import { meterCss, meterHostCss } from './meter-styles'
import { DEFAULT_METER_LABEL, MeterView, meterAttributes, type TokenMeterVariant } from './meter-view'

export interface ThreadlensTokenMeterProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /**
   * The projection to show (`result.meta` of `useProjection`, a session's `lastProjection.meta`, or
   * `project(...).meta`). While it is `undefined` the meter says it is counting (`data-status="loading"`).
   */
  readonly meta: ProjectionMeta | undefined
  /** `compact`: the bar and "used / budget tokens (fill)"; `full`: also the counter, warnings and a legend of every part. Default `compact`. */
  readonly variant?: TokenMeterVariant
  /** Colours for a light or a dark page. Default `light`. */
  readonly colorScheme?: MeterColorScheme
  /** The meter's accessible name, first in its tooltip too (e.g. "Tokens of the next call"). Default `Context tokens used`. */
  readonly label?: string
}

/**
 * The devtools' token meter as an app component: the parts of a projection (system, memory,
 * summary, history, pending, tool schemas) as shares of the input budget (window minus reserved
 * output), amber over 75 % and red over 90 % of it, marked when the counts are estimated. Unlike the
 * panel it renders in production builds too. It draws itself in a shadow root of its own: the app's
 * CSS cannot reach its insides and its CSS cannot leak out; the app sizes and places its host
 * (`className`, `style`), which carries the other attributes given and `meterAttributes`' `data-*`.
 */
export function ThreadlensTokenMeter({
  meta,
  variant = 'compact',
  colorScheme = 'light',
  label = DEFAULT_METER_LABEL,
  ...host
}: ThreadlensTokenMeterProps) {
  return (
    <ShadowHost {...host} {...meterAttributes(meta)}>
      <style>{meterCss + meterHostCss}</style>
      <MeterView meta={meta} variant={variant} colorScheme={colorScheme} label={label} />
    </ShadowHost>
  )
}
