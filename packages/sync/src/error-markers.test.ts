import { describe, expect, it, vi } from 'vitest'
import { errorMarkerProblems, exportedErrorClasses } from '@threadlens/testing'
import * as firstCopy from './index'

describe('error markers', () => {
  it('gives every exported error class its own marker, checked in this copy and in a second copy of the package and core', async () => {
    vi.resetModules()
    const secondCopy = (await import('./index')) as unknown as Record<string, unknown>
    const classes = exportedErrorClasses(firstCopy as unknown as Record<string, unknown>)
    expect(classes.size).toBeGreaterThanOrEqual(3)
    expect(errorMarkerProblems(firstCopy as unknown as Record<string, unknown>, secondCopy)).toEqual([])
  })
})
