import { describe, expect, it } from 'vitest'
import { apiReport, packageEntries } from '../../core/src/testing/public-api'

// The names a user of the main entry point has to learn; subpaths hold the rest.
const MAIN_ENTRY_BUDGET = 60

describe('public API', () => {
  const entries = packageEntries(new URL('../', import.meta.url))

  it('matches the checked-in list, so API growth is a deliberate diff (vitest -u to accept one)', async () => {
    for (const entry of entries) console.info(`${entry.specifier}: ${entry.values.length + entry.types.length} names`)
    await expect(apiReport(entries)).toMatchFileSnapshot('../public-api.txt')
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
