import type { ProjectionMeta } from '@threadlens/core'
import { METER_AMBER_RATIO, METER_RED_RATIO } from '../constants'

export type MeterPartKey = 'system' | 'memory' | 'summary' | 'history' | 'pending' | 'tools' | 'reserved' | 'free'

export interface MeterPart {
  readonly key: MeterPartKey
  readonly label: string
  readonly tokens: number
  /** Share of the model's window (`maxInputTokens`), 0..1: the bar's width. */
  readonly share: number
  /**
   * Share of the input budget (window minus reserved output), 0..1 — the one denominator the panel
   * speaks in; `undefined` for the reserved output, which is not part of the input budget.
   */
  readonly budgetShare: number | undefined
}

export interface MeterModel {
  readonly parts: readonly MeterPart[]
  /** Tokens the request uses (all segments and tool schemas). */
  readonly used: number
  /** The window: `maxInputTokens` (input and output together). */
  readonly window: number
  /** Input budget: window minus reserved output. */
  readonly budget: number
  /** `used / budget`: what the warning level is judged on. */
  readonly fill: number
  readonly level: 'ok' | 'amber' | 'red'
}

/**
 * The stacked meter: system / memory / summary / history / pending / tool schemas / reserved output
 * / free. "Free" is what is left after the reserve, so it is really free. Parts add up to the window
 * (more only on overflow, when free is 0 and used exceeds the budget).
 */
export function meterModel(meta: ProjectionMeta): MeterModel {
  const { tokens, budget } = meta
  // The reply priming (3 tokens) is counted in tokens.system by the projector; it stays there.
  const window = budget.maxInputTokens
  const raw: [MeterPartKey, string, number][] = [
    ['system', 'system', tokens.system],
    ['memory', 'memory', tokens.memory],
    ['summary', 'summary', tokens.summary],
    ['history', 'history', tokens.history],
    ['pending', 'pending', tokens.pending],
    ['tools', 'tool schemas', tokens.tools],
    ['reserved', 'reserved output', budget.reserveOutputTokens],
    ['free', 'free', Math.max(0, budget.free)],
  ]
  const scale = Math.max(window, tokens.total + budget.reserveOutputTokens)
  const fill = budget.input <= 0 ? 1 : tokens.total / budget.input
  return {
    parts: raw.map(([key, label, count]) => ({
      key,
      label,
      tokens: count,
      share: scale === 0 ? 0 : count / scale,
      budgetShare: key === 'reserved' ? undefined : budget.input <= 0 ? 0 : count / budget.input,
    })),
    used: tokens.total,
    window,
    budget: budget.input,
    fill,
    level: fill > METER_RED_RATIO ? 'red' : fill > METER_AMBER_RATIO ? 'amber' : 'ok',
  }
}

const numberFormat = new Intl.NumberFormat('en-US')
export function formatNumber(value: number): string {
  return numberFormat.format(value)
}

export function formatPercent(share: number): string {
  const percent = share * 100
  return `${percent < 10 && percent > 0 ? percent.toFixed(1) : Math.round(percent)}%`
}
