import { describe, expect, it } from 'vitest'
import { meterPalettes, partVariables } from './meter-palette'

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5]
      .map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255)
      .map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4)) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (high + 0.05) / (low + 0.05)
}

// The page each scheme sits on: an app's white page, the panel's dark background.
const pages = { light: '#ffffff', dark: '#161a20' } as const

describe('meter palette', () => {
  it('gives recalled entries a colour of their own, 4.5:1 or more against the page and the free part on both schemes', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { parts } = meterPalettes[scheme]
      const others = Object.entries(parts)
        .filter(([key]) => key !== 'recall')
        .map(([, colour]) => colour)
      expect(others).not.toContain(parts.recall)
      expect(contrast(parts.recall, pages[scheme]), scheme).toBeGreaterThanOrEqual(4.5)
      expect(contrast(parts.recall, parts.free), scheme).toBeGreaterThanOrEqual(4.5)
      expect(partVariables(scheme)).toContain(`--part-recall: ${parts.recall};`)
    }
    // The context map's tiles carry dark text on the dark scheme's colours.
    expect(contrast(meterPalettes.dark.parts.recall, '#0b0f14')).toBeGreaterThanOrEqual(4.5)
  })
})
