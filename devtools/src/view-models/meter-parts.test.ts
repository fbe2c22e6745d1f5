import type { ProjectionMeta } from '@threadlens/core'
import { describe, expect, it } from 'vitest'
import { formatPercent, meterModel } from './meter-parts'

function meta(total: number, window = 1000, reserve = 200): ProjectionMeta {
  return {
    tokens: { system: 10, memory: 0, summary: 0, history: total - 10, pending: 0, tools: 0, total },
    budget: { maxInputTokens: window, reserveOutputTokens: reserve, input: window - reserve, free: window - reserve - total },
  } as unknown as ProjectionMeta
}

describe('meterModel', () => {
  it('gives every share of the input budget, with free net of the reserve and the reserve beside it', () => {
    const model = meterModel(meta(400))
    expect(model.parts.map((part) => part.key)).toEqual(['system', 'memory', 'summary', 'history', 'pending', 'tools', 'reserved', 'free'])
    expect(model.parts.reduce((sum, part) => sum + part.tokens, 0)).toBe(1000)
    expect(model.parts.find((part) => part.key === 'free')?.tokens).toBe(400)
    // Input parts and free fill the input budget; the header's fill is the same share.
    expect(model.parts.filter((part) => part.key !== 'reserved').reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1)
    expect(model.parts.find((part) => part.key === 'reserved')?.share).toBe(0.25)
    expect(model.fill).toBe(0.5)
    expect(model.parts.find((part) => part.key === 'history')?.share).toBeCloseTo(390 / 800)
  })

  it('speaks in shares of the input budget, as the header does: input parts and free add up to 1, the reserve lies outside', () => {
    const model = meterModel(meta(400))
    expect(model.parts.find((part) => part.key === 'history')?.share).toBe(390 / 800)
    // Reserved output lies outside the input budget: the other parts and free space make it whole.
    expect(model.parts.filter((part) => part.key !== 'reserved').reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1)
    expect(model.fill).toBe(model.used / model.budget)
  })

  it('is ok up to 75% of the input budget, amber above, red above 90%', () => {
    expect(meterModel(meta(600)).level).toBe('ok')
    expect(meterModel(meta(601)).level).toBe('amber')
    expect(meterModel(meta(720)).level).toBe('amber')
    expect(meterModel(meta(721)).level).toBe('red')
  })

  it('on overflow free is 0 and the bar is scaled to what is used', () => {
    const model = meterModel(meta(900))
    expect(model.parts.find((part) => part.key === 'free')?.tokens).toBe(0)
    expect(model.parts.filter((part) => part.key !== 'reserved').reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1)
    expect(model.level).toBe('red')
  })

  it('formats shares', () => {
    expect(formatPercent(0.5)).toBe('50%')
    expect(formatPercent(0.034)).toBe('3.4%')
    expect(formatPercent(0)).toBe('0%')
  })
})
