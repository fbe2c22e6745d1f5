import { describe, expect, it, vi } from 'vitest'
import * as main from '../index'
import * as caching from '../caching/index'
import * as models from '../models/index'
import { errorMarkerProblems, exportedErrorClasses } from '../testing/error-classes'
import { BudgetOverflowError, InvalidEntryError, ThreadlensError } from './threadlens-error'

describe('error markers', () => {
  it('gives every exported error class its own marker, checked in this copy and in a second copy of core', async () => {
    const core = { ...main, ...models, ...caching } as Record<string, unknown>
    vi.resetModules()
    const second = { ...(await import('../index')), ...(await import('../models/index')), ...(await import('../caching/index')) } as Record<
      string,
      unknown
    >
    expect(second.ThreadlensError).not.toBe(core.ThreadlensError)
    expect(exportedErrorClasses(core).size).toBeGreaterThanOrEqual(13)
    expect(errorMarkerProblems(core, second)).toEqual([])
  })

  it('narrows with a subclass isInstance and tells sibling classes apart', () => {
    const error: unknown = new InvalidEntryError('payload.role', 'must be user or assistant')
    expect(ThreadlensError.isInstance(error)).toBe(true)
    expect(BudgetOverflowError.isInstance(error)).toBe(false)
    if (!InvalidEntryError.isInstance(error)) throw new Error('InvalidEntryError.isInstance missed its own instance')
    expect(error.field).toBe('payload.role')
    expect(error.name).toBe('InvalidEntryError')
    expect(error.message).toBe('Invalid entry: payload.role: must be user or assistant')
    expect(InvalidEntryError.isInstance(new Error('plain'))).toBe(false)
    expect(InvalidEntryError.isInstance({ name: 'InvalidEntryError' })).toBe(false)
    expect(ThreadlensError.isInstance(null)).toBe(false)
  })

  it('keeps the marker out of JSON and enumeration', () => {
    const error = new BudgetOverflowError(10, 5)
    expect(Object.getOwnPropertySymbols(error).length).toBe(2)
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: 'BudgetOverflowError', required: 10, budget: 5 })
  })

  it('falls back to instanceof for an app subclass that declares no errorName', () => {
    class AppError extends ThreadlensError {}
    const appError = new AppError('app failure')
    expect(appError.name).toBe('AppError')
    expect(AppError.isInstance(appError)).toBe(true)
    expect(AppError.isInstance(new ThreadlensError('base'))).toBe(false)
    expect(ThreadlensError.isInstance(appError)).toBe(true)
  })
})
