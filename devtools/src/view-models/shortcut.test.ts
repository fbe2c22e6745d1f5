import { describe, expect, it } from 'vitest'
import { matchesShortcut, parseShortcut } from './shortcut'

const key = (code: string, modifiers: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) => ({
  code,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...modifiers,
})

describe('shortcuts', () => {
  it('parses modifiers and keys, and matches by code with exact modifiers', () => {
    const shortcut = parseShortcut('Alt+Shift+D')
    expect(shortcut).toEqual({ alt: true, ctrl: false, meta: false, shift: true, code: 'KeyD' })
    expect(matchesShortcut(key('KeyD', { altKey: true, shiftKey: true }), shortcut)).toBe(true)
    expect(matchesShortcut(key('KeyD', { altKey: true }), shortcut)).toBe(false)
    expect(matchesShortcut(key('KeyD', { altKey: true, shiftKey: true, ctrlKey: true }), shortcut)).toBe(false)
    expect(parseShortcut('ctrl+.').code).toBe('Period')
    expect(parseShortcut('meta+1').code).toBe('Digit1')
  })

  it('rejects what it cannot match, naming the fix', () => {
    expect(() => parseShortcut('hyper+d')).toThrow(/use alt, ctrl, meta or shift/)
    expect(() => parseShortcut('ctrl+F12')).toThrow(/end it with a letter/)
  })
})
