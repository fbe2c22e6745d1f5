import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The fake servers import node:http; the package's browser build must never reach them.
const sourceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  )
}

const isTest = (path: string): boolean => /\.test(-d)?\.tsx?$/.test(path)

describe('node-only code stays out of the browser build', () => {
  it('no file outside tests and testing/ imports testing/ or node: modules', () => {
    const offenders: string[] = []
    for (const path of sourceFiles(sourceRoot)) {
      const local = relative(sourceRoot, path)
      if (isTest(path) || local.startsWith('testing/')) continue
      for (const specifier of importsOf(path)) {
        if (specifier.startsWith('node:') || /(^|\/)testing(\/|$)/.test(specifier)) offenders.push(`${local} imports ${specifier}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('testing/ files are reached only from tests and other testing/ files', () => {
    const offenders: string[] = []
    for (const path of sourceFiles(sourceRoot)) {
      const local = relative(sourceRoot, path)
      if (isTest(path)) continue
      for (const specifier of importsOf(path)) {
        if (/(^|\/)testing\//.test(specifier) && !local.startsWith('testing/')) offenders.push(`${local} imports ${specifier}`)
      }
    }
    expect(offenders).toEqual([])
    // The check reads real imports: it sees the ones this package's tests make.
    expect(importsOf(join(sourceRoot, 'model', 'openai-compatible.test.ts'))).toContain('@threadlens/testing/node')
  })
})
