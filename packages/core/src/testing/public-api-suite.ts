import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { apiReport, packageEntries } from './public-api'

/** The names a user of a package's main entry point has to learn; subpaths hold the rest. */
export const MAIN_ENTRY_BUDGET = 60

/**
 * The public API checks every package runs on itself: its export list matches the checked-in
 * `public-api.txt` (so growth is a deliberate diff), what loads at run time is what the barrels
 * name, and the main entry point stays within `MAIN_ENTRY_BUDGET` names.
 */
export function describePublicApi(packageDirectory: URL): void {
  describe('public API', () => {
    const entries = packageEntries(packageDirectory)

    it('matches the checked-in list, so API growth is a deliberate diff (vitest -u to accept one)', async () => {
      for (const entry of entries) console.info(`${entry.specifier}: ${entry.values.length + entry.types.length} names`)
      await expect(apiReport(entries)).toMatchFileSnapshot(fileURLToPath(new URL('public-api.txt', packageDirectory)))
    })

    it('exports at run time exactly the values its barrels name', async () => {
      for (const entry of entries) {
        const loaded = (await import(/* @vite-ignore */ entry.file.href)) as Record<string, unknown>
        expect(Object.keys(loaded).sort(), entry.specifier).toEqual(entry.values)
      }
    })

    it(`keeps the main entry point within ${MAIN_ENTRY_BUDGET} names`, () => {
      const [main] = entries
      expect((main?.values.length ?? 0) + (main?.types.length ?? 0)).toBeLessThanOrEqual(MAIN_ENTRY_BUDGET)
    })
  })
}
