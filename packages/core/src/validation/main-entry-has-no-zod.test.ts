import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Core and the store check everything with core's readers; zod is reached only through the issues
// formatter that the packages checking with zod (agent, ai-sdk) import from /internal.
// Walks the static imports of src/index.ts (type-only imports are erased, so they do not count).

const source = new URL('../', import.meta.url)

/** A subpath's entry module, relative to src/, as core's package.json `exports` names it. */
function subpathEntry(subpath: string): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', source), 'utf8')) as { exports: Record<string, string> }
  const file = manifest.exports[`./${subpath}`]
  if (file === undefined) throw new Error(`core exports no ./${subpath}`)
  return file.replace(/^\.\/src\//, '')
}

function runtimeImports(file: URL): string[] {
  const text = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) found.push(match[1] as string)
  return found
}

function reachable(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>()
  const packages = new Set<string>()
  const stack = [new URL(entry, source).href]
  while (stack.length > 0) {
    const href = stack.pop() as string
    if (modules.has(href)) continue
    modules.add(href)
    for (const specifier of runtimeImports(new URL(href))) {
      if (!specifier.startsWith('.')) packages.add(specifier)
      else stack.push(new URL(`${specifier}.ts`, href).href)
    }
  }
  return { modules, packages }
}

describe("core's main entry", () => {
  it('imports no zod at run time (nor any package but the lazily loaded tokenizer)', () => {
    const { modules, packages } = reachable('index.ts')
    expect(modules.size).toBeGreaterThan(40)
    expect([...packages]).toEqual([])
  })

  it("nor do its public subpaths; the walk does see zod where it is: /internal's issues formatter for the agent and ai-sdk", () => {
    for (const subpath of ['caching', 'calls', 'compaction', 'memory', 'models', 'parts', 'views']) {
      expect(
        [...reachable(subpathEntry(subpath)).packages].filter((name) => name.startsWith('zod')),
        subpath,
      ).toEqual([])
    }
    expect([...reachable(subpathEntry('internal')).packages].sort()).toEqual(['zod/locales', 'zod/mini'])
  })
})
