import { readFileSync } from 'node:fs'

/** The names one entry point exports, read from its barrel (`export { … } from`, `export type { … } from`). */
export interface EntryApi {
  /** The import specifier, e.g. `@threadlens/core/memory`. */
  readonly specifier: string
  readonly file: URL
  readonly values: readonly string[]
  readonly types: readonly string[]
}

const exportList = /export(\s+type)?\s*\{([^}]*)\}\s*from\s*'[^']+'/g
const declaration = /export\s+(?:declare\s+)?(const|function|class|interface|type)\s+(\w+)/g

/** The value and type names a barrel exports (names after `as`), sorted. */
export function barrelNames(source: string): { values: string[]; types: string[] } {
  const values = new Set<string>()
  const types = new Set<string>()
  for (const match of source.matchAll(exportList)) {
    for (const raw of (match[2] ?? '').split(',')) {
      const spec = raw.trim()
      if (spec === '') continue
      const isType = match[1] !== undefined || spec.startsWith('type ')
      const name = (spec.startsWith('type ') ? spec.slice(5) : spec).split(' as ').at(-1)?.trim() ?? ''
      ;(isType ? types : values).add(name)
    }
  }
  for (const match of source.matchAll(declaration)) (match[1] === 'interface' || match[1] === 'type' ? types : values).add(match[2] ?? '')
  return { values: [...values].sort(), types: [...types].sort() }
}

/** Every entry point of a package (its `package.json` `exports` pointing at TypeScript sources). */
export function packageEntries(packageDirectory: URL): EntryApi[] {
  const manifest = JSON.parse(readFileSync(new URL('package.json', packageDirectory), 'utf8')) as {
    name: string
    exports: Record<string, unknown>
    publishConfig?: { exports?: Record<string, unknown> }
  }
  // The public API is what is published: an entry declared for the workspace only (core's `./testing`) is not part of it.
  const published = manifest.publishConfig?.exports
  const entries: EntryApi[] = []
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== 'string' || !/\.tsx?$/.test(target)) continue
    if (published !== undefined && !(subpath in published)) continue
    const file = new URL(target, packageDirectory)
    const { values, types } = barrelNames(readFileSync(file, 'utf8'))
    entries.push({ specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, file, values, types })
  }
  return entries
}

/** The checked-in form: one line per name, grouped by entry point, with counts. */
export function apiReport(entries: readonly EntryApi[]): string {
  return entries
    .map((entry) =>
      [
        `# ${entry.specifier}: ${entry.values.length + entry.types.length} names (${entry.values.length} values, ${entry.types.length} types)`,
        ...entry.values.map((name) => `value ${name}`),
        ...entry.types.map((name) => `type ${name}`),
      ].join('\n'),
    )
    .join('\n\n')
    .concat('\n')
}
