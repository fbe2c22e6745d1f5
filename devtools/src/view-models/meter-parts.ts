import type { ProjectionMeta } from '@threadlens/core'
import { METER_AMBER_RATIO, METER_RED_RATIO } from '../constants'

export type MeterPartKey = 'system' | 'memory' | 'summary' | 'history' | 'recall' | 'pending' | 'tools' | 'reserved' | 'free'

export interface MeterPart {
  readonly key: MeterPartKey
  readonly label: string
  readonly tokens: number
  /**
   * Share of the input budget (window minus reserved output), the one denominator of the panel.
   * Input parts and free add up to 1 (to the request on overflow); reserved output lies outside it.
   */
  readonly share: number
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
 * The stacked meter: system / memory / summary / history / recalled / pending / tool schemas / free, as shares
 * of the input budget, plus reserved output beside it (not part of the budget). "Free" is what is
 * left after the reserve, so it is really free. Recalled entries have a part only when the policy
 * recalls (`meta.recall` set). Input parts and free add up to the input budget (to
 * the request on overflow, when free is 0).
 */
export function meterModel(meta: ProjectionMeta): MeterModel {
  const { tokens, budget } = meta
  // The reply priming (3 tokens) is counted in tokens.system by the projector; it stays there.
  const window = budget.maxInputTokens
  // Recall has a part only under a policy that recalls, so a meter without it reads as before.
  const raw: [MeterPartKey, string, number][] = [
    ['system', 'system', tokens.system],
    ['memory', 'memory', tokens.memory],
    ['summary', 'summary', tokens.summary],
    ['history', 'history', tokens.history],
    ...(meta.recall === undefined ? [] : [['recall', 'recalled entries', tokens.recall] as [MeterPartKey, string, number]]),
    ['pending', 'pending', tokens.pending],
    ['tools', 'tool schemas', tokens.tools],
    ['reserved', 'reserved output', budget.reserveOutputTokens],
    ['free', 'free', Math.max(0, budget.free)],
  ]
  const scale = Math.max(budget.input, tokens.total)
  const fill = budget.input <= 0 ? 1 : tokens.total / budget.input
  return {
    parts: raw.map(([key, label, count]) => ({ key, label, tokens: count, share: scale <= 0 ? 0 : count / scale })),
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
