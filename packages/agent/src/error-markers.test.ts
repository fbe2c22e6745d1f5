import { describe, expect, it, vi } from 'vitest'
import { errorMarkerProblems, exportedErrorClasses } from '@threadlens/testing'
import * as main from './index'
import * as testing from './exports/testing'

describe('error markers', () => {
  it('gives every exported error class its own marker, checked in this copy and in a second copy of the package and core', async () => {
    const firstCopy = { ...main, ...testing } as Record<string, unknown>
    vi.resetModules()
    const secondCopy = { ...(await import('./index')), ...(await import('./exports/testing')) } as Record<string, unknown>
    const classes = exportedErrorClasses(firstCopy)
    expect(classes.size).toBeGreaterThanOrEqual(11)
    expect(errorMarkerProblems(firstCopy, secondCopy)).toEqual([])
  })
})
