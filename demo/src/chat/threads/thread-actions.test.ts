import { describe, expect, it } from 'vitest'
import { importedTitle, importNotice } from './thread-actions'

describe('importing a chat', () => {
  it('keeps its title unless a chat has it already; then marks it "(imported)", counting on when that is taken too', () => {
    expect(importedTitle('Ferry planning', new Set(['Other']))).toBe('Ferry planning')
    expect(importedTitle('Ferry planning', new Set(['Ferry planning']))).toBe('Ferry planning (imported)')
    expect(importedTitle('Ferry planning', new Set(['Ferry planning', 'Ferry planning (imported)']))).toBe('Ferry planning (imported 2)')
  })

  it('says what it did', () => {
    expect(importNotice({ threadId: 't', title: 'Ferry planning', entryCount: 781, marked: false, changeCount: 0 })).toBe(
      'Imported “Ferry planning” (781 entries) and opened it.',
    )
    expect(importNotice({ threadId: 't', title: 'Ferry planning (imported)', entryCount: 1, marked: true, changeCount: 0 })).toBe(
      'Imported “Ferry planning (imported)” (1 entry) and opened it; a chat with the same title already exists, so this one is marked “(imported)”.',
    )
    expect(importNotice({ threadId: 't', title: 'tau-bench', entryCount: 40, marked: false, changeCount: 4 })).toBe(
      'Imported “tau-bench” (40 entries) and opened it. 4 changes made on import.',
    )
    expect(importNotice({ threadId: 't', title: 'sdk', entryCount: 4, marked: false, changeCount: 1 })).toBe(
      'Imported “sdk” (4 entries) and opened it. 1 change made on import.',
    )
  })
})
