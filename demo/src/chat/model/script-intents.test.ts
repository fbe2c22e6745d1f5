import { describe, expect, test } from 'vitest'
import { findExpression, intentOf } from './script-intents'

describe('intentOf', () => {
  test('arithmetic goes to the calculator', () => {
    expect(intentOf('What is 12 * 7?')).toEqual({ type: 'tools', calls: [{ name: 'calculator', arguments: { expression: '12 * 7' } }] })
    expect(intentOf('what is 17% of 2,340')).toEqual({
      type: 'tools',
      calls: [{ name: 'calculator', arguments: { expression: '(17 / 100 * 2340)' } }],
    })
    expect(intentOf('compute (3 + 4) x 2 please')).toMatchObject({ calls: [{ arguments: { expression: '(3 + 4) * 2' } }] })
    expect(intentOf('12 plus 30 divided by 2')).toMatchObject({ calls: [{ arguments: { expression: '12 + 30 / 2' } }] })
  })

  test('conversions go to convert_units, with any arithmetic beside them', () => {
    expect(intentOf('convert 5 km to miles')).toEqual({
      type: 'tools',
      calls: [{ name: 'convert_units', arguments: { value: 5, from: 'km', to: 'miles' } }],
    })
    expect(intentOf('72 °F in celsius?')).toMatchObject({ calls: [{ name: 'convert_units', arguments: { value: 72, from: '°F', to: 'celsius' } }] })
    expect(intentOf('convert 2 kg to lb and what is 3*4')).toMatchObject({
      calls: [{ name: 'convert_units' }, { name: 'calculator', arguments: { expression: '3*4' } }],
    })
  })

  test('"remember" and "note" save a note; "read" reads a document', () => {
    expect(intentOf('Remember that my flight leaves at 9:40.')).toEqual({
      type: 'tools',
      calls: [{ name: 'save_note', arguments: { text: 'my flight leaves at 9:40' } }],
    })
    expect(intentOf('note: budget is 1200 EUR')).toMatchObject({ calls: [{ name: 'save_note', arguments: { text: 'budget is 1200 EUR' } }] })
    expect(intentOf('read the quarterly report')).toEqual({
      type: 'tools',
      calls: [{ name: 'read_document', arguments: { name: 'quarterly report' } }],
    })
    expect(intentOf('summarize the design document for me')).toMatchObject({
      calls: [{ name: 'read_document', arguments: { name: 'design document' } }],
    })
  })

  test('/error fails; "what do you remember" recalls; anything else is chat', () => {
    expect(intentOf('/error')).toEqual({ type: 'error' })
    expect(intentOf('what do you remember?')).toEqual({ type: 'recall' })
    expect(intentOf('hello there')).toEqual({ type: 'chat' })
    expect(intentOf('my flight is on 2024-05-01')).toEqual({ type: 'chat' })
    expect(intentOf('I have 3 cats')).toEqual({ type: 'chat' })
  })

  test('findExpression takes the longest run with a number and an operator', () => {
    expect(findExpression('is 2 + 2 more than sqrt(9) * 1?')).toBe('sqrt(9) * 1')
    expect(findExpression('nothing here 42')).toBeUndefined()
  })
})
