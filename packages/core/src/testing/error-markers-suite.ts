import { describe, expect, it, vi } from 'vitest'
import { errorMarkerProblems, exportedErrorClasses } from './error-classes'

/**
 * The error-marker test every package runs on its main entry: each exported error class has its own
 * marker, checked in `firstCopy` and in a second copy loaded after `vi.resetModules()`.
 */
export function describeErrorMarkers(firstCopy: object, loadSecondCopy: () => Promise<object>, minimumClasses: number): void {
  describe('error markers', () => {
    it('gives every exported error class its own marker, checked in this copy and in a second copy of the package and core', async () => {
      vi.resetModules()
      const secondCopy = (await loadSecondCopy()) as Record<string, unknown>
      const classes = exportedErrorClasses(firstCopy as Record<string, unknown>)
      expect(classes.size).toBeGreaterThanOrEqual(minimumClasses)
      expect(errorMarkerProblems(firstCopy as Record<string, unknown>, secondCopy)).toEqual([])
    })
  })
}
