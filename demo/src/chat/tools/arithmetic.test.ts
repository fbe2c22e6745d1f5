import { describe, expect, test } from 'vitest'
import { ArithmeticError, evaluateArithmetic, roundResult } from './arithmetic'

describe('evaluateArithmetic', () => {
  test.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['2 ^ -1', 0.5],
    ['10 % 4', 2],
    ['17 / 100 * 2340', 397.8],
    ['sqrt(16) + abs(-3)', 7],
    ['max(1, 5, 3) - min(4, 2)', 3],
    ['1_000 * 1e3', 1_000_000],
    ['.5 + .25', 0.75],
    ['round(pi * 100)', 314],
    ['--3', 3],
  ])('%s = %d', (expression, expected) => {
    expect(roundResult(evaluateArithmetic(expression))).toBe(expected)
  })

  test('0.1 + 0.2 rounds to 0.3', () => {
    expect(roundResult(evaluateArithmetic('0.1 + 0.2'))).toBe(0.3)
  })

  test.each([
    ['', /empty/],
    ['1 +', /ends too early/],
    ['(1 + 2', /expected "\)"/],
    ['1 / 0', /division by zero at position 3/],
    ['2 ** 3', /unexpected "\*" at position 4/],
    ['alert(1)', /unknown name "alert"/],
    ['constructor', /unknown name/],
    ['1; globalThis.x = 1', /unexpected ";"/],
    ['<img src=x onerror=alert(1)>', /unexpected "<"/],
    ['sqrt(1, 2)', /takes 1 arguments, got 2/],
    ['10 ^ 400', /not a finite number/],
    ['('.repeat(100) + '1' + ')'.repeat(100), /deeper than 64/],
  ])('rejects %j', (expression, message) => {
    expect(() => evaluateArithmetic(expression)).toThrow(ArithmeticError)
    expect(() => evaluateArithmetic(expression)).toThrow(message)
  })
})
