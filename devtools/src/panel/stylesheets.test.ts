import { describe, expect, it } from 'vitest'
import { meterCss } from '../meter/meter-styles'
import { shellCss } from '../shell/shell-styles'
import { insightCss } from './insight-styles'
import { panelCss } from './panel-styles'

/** The nesting depth after each rule: a stray `}` ends a block early, and every rule after it is read wrongly. */
function braceProblems(css: string): string[] {
  const problems: string[] = []
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, '')
  let depth = 0
  for (const [position, character] of [...rules].entries()) {
    if (character === '{') depth++
    if (character !== '}') continue
    depth--
    if (depth < 0) {
      problems.push(`a } with no block open, near “${rules.slice(Math.max(0, position - 60), position + 1)}”`)
      depth = 0
    }
  }
  if (depth !== 0) problems.push(`${depth} block(s) never closed`)
  return problems
}

describe("the devtools' stylesheets", () => {
  it.each([
    ['panel', panelCss],
    ['insight', insightCss],
    ['shell', shellCss],
    ['meter', meterCss],
  ])('%s: every block closes once', (_name, css) => {
    expect(braceProblems(css)).toEqual([])
  })

  it('finds a stray brace', () => {
    expect(braceProblems('.a { color: red; } }\n.b { }')).toHaveLength(1)
    expect(braceProblems('.a { color: red;')).toEqual(['1 block(s) never closed'])
  })
})
