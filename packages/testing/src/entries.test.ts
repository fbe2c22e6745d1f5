import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Browser tests import the main entry, so nothing it reaches may need Node, Vite, vitest or
// Playwright; the other entries say where they run in their names.
function importsOf(file: URL): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  )
}

/** Every module the file reaches through relative imports, and the bare specifiers it imports on the way. */
function reach(entry: URL): { files: string[]; packages: string[] } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const pending = [entry]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file.href)) continue
    files.add(file.href)
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) pending.push(new URL(/\.tsx?$/.test(specifier) ? specifier : `${specifier}.ts`, file))
      else packages.add(specifier)
    }
  }
  return { files: [...files], packages: [...packages].sort() }
}

describe('@threadlens/testing entries', () => {
  it('the main entry reaches nothing Node-only, so browser tests can import it', () => {
    const { files, packages } = reach(new URL('./index.ts', import.meta.url))
    // It does reach the fake providers (the walk follows relative imports) and core's test entry.
    expect(files.some((file) => file.endsWith('/fake-provider/fake-openai-chat.ts'))).toBe(true)
    expect(packages).toContain('@threadlens/core/testing')
    const core = reach(new URL('../../core/src/testing/index.ts', import.meta.url))
    expect(core.files.some((file) => file.endsWith('/core/src/testing/random-thread.ts'))).toBe(true)
    const nodeOnly = (name: string) => name.startsWith('node:') || ['vite', 'vitest', '@playwright/test'].includes(name)
    expect([...packages, ...core.packages].filter(nodeOnly)).toEqual([])
  })

  it("core's test entries are the workspace's only: the published core does not export them", () => {
    const core = JSON.parse(readFileSync(new URL('../../core/package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, string>
      publishConfig: { exports: Record<string, unknown> }
    }
    expect(Object.keys(core.exports)).toEqual(expect.arrayContaining(['./testing', './testing/node']))
    expect(Object.keys(core.publishConfig.exports).filter((entry) => entry.startsWith('./testing'))).toEqual([])
  })

  it('the Node entry is where the server, the harness and the vitest hooks are', () => {
    expect(reach(new URL('./node.ts', import.meta.url)).packages).toEqual(expect.arrayContaining(['node:http', 'vite', 'vitest']))
  })
})
