import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_FLOATING_RECT } from '../constants'
import { restoreUiState, type DevtoolsUiState } from './ui-state'

const defaults: DevtoolsUiState = { open: false, dock: 'bottom', size: 420, floating: DEFAULT_FLOATING_RECT, tab: 'projection', filters: {} }

describe('restoreUiState', () => {
  it('takes back every valid remembered field', () => {
    const stored = {
      open: true,
      dock: 'floating',
      size: 555,
      floating: { x: 10, y: 20, width: 600, height: 400 },
      tab: 'timeline',
      filters: { 'timeline-kinds': ['message'] },
    }
    expect(restoreUiState(stored, defaults)).toEqual(stored)
  })

  it('falls back to the default for each bad field alone, and for non-objects entirely', () => {
    const restored = restoreUiState(
      { open: 'yes', dock: 'left', size: -3, floating: { x: 1 }, tab: 'timeline', filters: { 'timeline-text': 'tokyo' } },
      defaults,
    )
    expect(restored).toEqual({ ...defaults, tab: 'timeline', filters: { 'timeline-text': 'tokyo' } })
    for (const junk of [null, 42, 'text', [], undefined]) expect(restoreUiState(junk, defaults)).toEqual(defaults)
  })

  it('never merges a stored __proto__ or odd filter name', () => {
    const stored = JSON.parse('{"filters": {"__proto__": {"polluted": true}}}') as unknown
    const restored = restoreUiState(stored, defaults)
    expect(restored.filters).toEqual({})
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  // Seed fixed so a failure replays: fast-check prints the seed and path on failure.
  it('returns a well-formed state for any JSON at all (seed 1313)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.record(
          { open: fc.jsonValue(), dock: fc.jsonValue(), size: fc.jsonValue(), tab: fc.jsonValue(), filters: fc.jsonValue() },
          { requiredKeys: [] },
        ),
        (value, record) => {
          for (const stored of [value, record]) {
            const state = restoreUiState(stored, defaults)
            expect(typeof state.open).toBe('boolean')
            expect(['bottom', 'right', 'floating']).toContain(state.dock)
            expect(Number.isFinite(state.size) && state.size > 0).toBe(true)
            expect(typeof state.tab).toBe('string')
            for (const filter of Object.values(state.filters)) expect(typeof filter === 'string' || Array.isArray(filter)).toBe(true)
          }
        },
      ),
      { seed: 1313, numRuns: 500 },
    )
  })
})
