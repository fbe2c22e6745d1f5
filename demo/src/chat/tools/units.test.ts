import { describe, expect, test } from 'vitest'
import { convertUnits, UnitError } from './units'

describe('convertUnits', () => {
  test.each([
    [5, 'km', 'miles', 3.10686, 'mi'],
    [1, 'mile', 'km', 1.60934, 'km'],
    [12, 'inches', 'cm', 30.48, 'cm'],
    [6, 'feet', 'm', 1.8288, 'm'],
    [2, 'kg', 'lb', 4.40925, 'lb'],
    [16, 'oz', 'g', 453.592, 'g'],
    [100, 'C', 'F', 212, '°F'],
    [72, '°F', 'celsius', 22.2222, '°C'],
    [0, 'K', 'C', -273.15, '°C'],
  ])('%d %s → %s', (value, from, to, result, symbol) => {
    const conversion = convertUnits(value, from, to)
    expect(conversion.result).toBe(result)
    expect(conversion.to).toBe(symbol)
  })

  test('refuses unknown units and mixed categories, naming what is supported', () => {
    expect(() => convertUnits(1, 'parsec', 'km')).toThrow(UnitError)
    expect(() => convertUnits(1, 'parsec', 'km')).toThrow(/unknown unit "parsec"; supported: length/)
    expect(() => convertUnits(1, 'kg', 'km')).toThrow(/cannot convert mass \(kg\) to length \(km\)/)
    expect(() => convertUnits(Number.NaN, 'kg', 'g')).toThrow(/finite/)
  })
})
