/** Length, mass and temperature conversions for the `convert_units` tool. */

export type UnitCategory = 'length' | 'mass' | 'temperature'

interface Unit {
  readonly symbol: string
  readonly category: UnitCategory
  /** Linear units: how many base units (metres, grams) one of this is. */
  readonly factor?: number
  readonly aliases: readonly string[]
}

const units: readonly Unit[] = [
  { symbol: 'mm', category: 'length', factor: 0.001, aliases: ['millimeter', 'millimeters', 'millimetre', 'millimetres'] },
  { symbol: 'cm', category: 'length', factor: 0.01, aliases: ['centimeter', 'centimeters', 'centimetre', 'centimetres'] },
  { symbol: 'm', category: 'length', factor: 1, aliases: ['meter', 'meters', 'metre', 'metres'] },
  { symbol: 'km', category: 'length', factor: 1000, aliases: ['kilometer', 'kilometers', 'kilometre', 'kilometres', 'kms'] },
  { symbol: 'in', category: 'length', factor: 0.0254, aliases: ['inch', 'inches'] },
  { symbol: 'ft', category: 'length', factor: 0.3048, aliases: ['foot', 'feet'] },
  { symbol: 'yd', category: 'length', factor: 0.9144, aliases: ['yard', 'yards'] },
  { symbol: 'mi', category: 'length', factor: 1609.344, aliases: ['mile', 'miles'] },
  { symbol: 'nmi', category: 'length', factor: 1852, aliases: ['nautical mile', 'nautical miles'] },
  { symbol: 'mg', category: 'mass', factor: 0.001, aliases: ['milligram', 'milligrams'] },
  { symbol: 'g', category: 'mass', factor: 1, aliases: ['gram', 'grams', 'gr'] },
  { symbol: 'kg', category: 'mass', factor: 1000, aliases: ['kilogram', 'kilograms', 'kilo', 'kilos', 'kgs'] },
  { symbol: 't', category: 'mass', factor: 1_000_000, aliases: ['tonne', 'tonnes', 'metric ton', 'metric tons'] },
  { symbol: 'oz', category: 'mass', factor: 28.349523125, aliases: ['ounce', 'ounces'] },
  { symbol: 'lb', category: 'mass', factor: 453.59237, aliases: ['lbs', 'pound', 'pounds'] },
  { symbol: 'st', category: 'mass', factor: 6350.29318, aliases: ['stone', 'stones'] },
  { symbol: '°C', category: 'temperature', aliases: ['c', 'celsius', 'degc', 'degrees celsius', 'centigrade'] },
  { symbol: '°F', category: 'temperature', aliases: ['f', 'fahrenheit', 'degf', 'degrees fahrenheit'] },
  { symbol: 'K', category: 'temperature', aliases: ['k', 'kelvin', 'kelvins'] },
]

const byName = new Map<string, Unit>()
for (const unit of units) {
  byName.set(unit.symbol.toLowerCase(), unit)
  for (const alias of unit.aliases) byName.set(alias, unit)
}

export class UnitError extends Error {
  override readonly name = 'UnitError'
}

/** The unit a name stands for (`km`, `kilometres`, `°F`, `fahrenheit`…), or `undefined`. */
export function findUnit(name: string): Unit | undefined {
  const key = name.trim().toLowerCase().replace(/^°\s*/, '').replace(/\s+/g, ' ')
  return byName.get(key) ?? byName.get(`°${key}`) ?? (key.endsWith('s') ? byName.get(key.slice(0, -1)) : undefined)
}

function toCelsius(value: number, symbol: string): number {
  if (symbol === '°F') return ((value - 32) * 5) / 9
  if (symbol === 'K') return value - 273.15
  return value
}

function fromCelsius(value: number, symbol: string): number {
  if (symbol === '°F') return (value * 9) / 5 + 32
  if (symbol === 'K') return value + 273.15
  return value
}

export interface Conversion {
  readonly value: number
  readonly from: string
  readonly to: string
  readonly result: number
  readonly category: UnitCategory
}

const supported = `length (${units
  .filter((unit) => unit.category === 'length')
  .map((unit) => unit.symbol)
  .join(', ')}), mass (${units
  .filter((unit) => unit.category === 'mass')
  .map((unit) => unit.symbol)
  .join(', ')}) and temperature (°C, °F, K)`

/** Converts `value` between two units of one category; throws `UnitError` naming what is supported. */
export function convertUnits(value: number, fromName: string, toName: string): Conversion {
  if (!Number.isFinite(value)) throw new UnitError('the value must be a finite number')
  const from = findUnit(fromName)
  const to = findUnit(toName)
  if (from === undefined) throw new UnitError(`unknown unit "${fromName}"; supported: ${supported}`)
  if (to === undefined) throw new UnitError(`unknown unit "${toName}"; supported: ${supported}`)
  if (from.category !== to.category) throw new UnitError(`cannot convert ${from.category} (${from.symbol}) to ${to.category} (${to.symbol})`)
  const result =
    from.category === 'temperature'
      ? fromCelsius(toCelsius(value, from.symbol), to.symbol)
      : (value * (from.factor as number)) / (to.factor as number)
  return { value, from: from.symbol, to: to.symbol, result: Number.parseFloat(result.toPrecision(6)), category: from.category }
}
