// Checks docs/architecture.md against the code, and fails on any difference:
// - the layer rule: a package's shipped source (src/, tests and test kits left out) imports a
//   @threadlens package only from a lower layer of the drawing, never @threadlens/testing, and
//   no Node built-in (the packages run in browsers);
// - declarations: every package it imports, types included (they end up in its .d.ts), is in its
//   `dependencies` or `peerDependencies`, so an app's install and type check find it, and every
//   package in its `dependencies` is imported somewhere (else apps install it for nothing);
// - the concept table: each row's file exists and exports the owner it names, and no concept or
//   owner appears twice.
// Usage: tsx .ci/architecture.ts
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { parseSync } from 'vite'

const doc = readFileSync('docs/architecture.md', 'utf8')
const problems: string[] = []

function section(title: string): string {
  const start = doc.indexOf(`## ${title}`)
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${title}" section`)
  const end = doc.indexOf('\n## ', start + 3)
  return doc.slice(start, end < 0 ? undefined : end)
}

/** The drawing's layers: `layer N   @threadlens/x ...` starts layer N; bare package lines below it join it. */
function layers(): Map<string, number> {
  const found = new Map<string, number>()
  let current: number | undefined
  for (const line of section('Layers').split('\n')) {
    const start = /^\s*layer (\d+)\s/.exec(line)
    if (start) current = Number(start[1])
    const name = /^\s*(?:layer \d+\s+)?(@threadlens\/[a-z-]+)\s/.exec(line)?.[1]
    if (name !== undefined && current !== undefined) found.set(name, current)
  }
  return found
}

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}

function shippedSources(dir: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', `${dir}/src`], { encoding: 'utf8' })
  return listed
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && !/\.test(-d)?\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .filter((file) => !/(^|\/)testing\//.test(file))
}

/** Every module specifier a file names: static imports and re-exports (types included), `import('…')`. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const { module } = parseSync(file, text, { sourceType: 'module' })
  const found = module.staticImports.map((entry) => entry.moduleRequest.value)
  for (const statement of module.staticExports)
    for (const entry of statement.entries) if (entry.moduleRequest !== null) found.push(entry.moduleRequest.value)
  // A dynamic import's request is an expression: a string literal keeps its quotes.
  for (const entry of module.dynamicImports) {
    const request = text.slice(entry.moduleRequest.start, entry.moduleRequest.end)
    if (/^['"`][^'"`$]*['"`]$/.test(request)) found.push(request.slice(1, -1))
  }
  return found
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string)
}

function checkImports(): number {
  const layerOf = layers()
  const dirs = [...execFileSync('git', ['ls-files', 'packages/*/package.json', 'devtools/package.json'], { encoding: 'utf8' }).split('\n')]
    .filter((file) => file !== '')
    .map((file) => file.slice(0, -'/package.json'.length))
  let files = 0
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as Manifest
    if (manifest.private === true) continue
    const own = layerOf.get(manifest.name)
    if (own === undefined) {
      problems.push(`${manifest.name} (${dir}) is published but not drawn in the Layers section`)
      continue
    }
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})])
    const used = new Set<string>()
    for (const file of shippedSources(dir)) {
      files += 1
      for (const specifier of specifiers(file)) {
        if (specifier.startsWith('.')) continue
        const name = packageOf(specifier)
        used.add(name)
        if (name.startsWith('node:')) problems.push(`${file}: imports the Node built-in ${specifier}; ${manifest.name} runs in browsers`)
        else if (name === manifest.name) problems.push(`${file}: imports its own package (${specifier}); use a relative path`)
        else if (!declared.has(name)) problems.push(`${file}: imports ${specifier}, but ${manifest.name} does not declare ${name}`)
        else if (name.startsWith('@threadlens/')) {
          const theirs = layerOf.get(name)
          if (theirs === undefined || theirs >= own)
            problems.push(`${file}: ${manifest.name} (layer ${own}) imports ${name} (layer ${theirs ?? 'none'}); imports go down only`)
        }
      }
    }
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (!used.has(name))
        problems.push(`${manifest.name} declares the dependency ${name}, but no shipped source imports it: every app installs it for nothing`)
    }
  }
  return files
}

function checkConcepts(): number {
  const rows = section('Where each concept lives')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| concept') && !line.startsWith('|---'))
  const concepts = new Set<string>()
  const owners = new Set<string>()
  for (const row of rows) {
    const cells = row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    const [concept, ownerCell, fileCell] = cells
    const owner = /^`([A-Za-z]+)`$/.exec(ownerCell ?? '')?.[1]
    const file = /^`([^`]+)`$/.exec(fileCell ?? '')?.[1]
    if (cells.length !== 3 || concept === undefined || owner === undefined || file === undefined) {
      problems.push(`concept table: cannot read the row ${row} (want | concept | \`Owner\` | \`one/file.ts\` |)`)
      continue
    }
    if (concepts.has(concept)) problems.push(`concept table: "${concept}" is listed twice`)
    if (owners.has(owner)) problems.push(`concept table: ${owner} owns two rows`)
    concepts.add(concept)
    owners.add(owner)
    if (!existsSync(file)) {
      problems.push(`concept table: ${concept}: ${file} does not exist`)
      continue
    }
    const exported = new RegExp(
      `^export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:function\\*?|class|interface|type|const|let)\\s+${owner}\\b`,
      'm',
    )
    if (!exported.test(readFileSync(file, 'utf8'))) problems.push(`concept table: ${concept}: ${file} does not export ${owner}`)
  }
  return rows.length
}

const files = checkImports()
const concepts = checkConcepts()
if (problems.length > 0) {
  for (const problem of problems) console.error(problem)
  console.error(`${problems.length} difference(s) between docs/architecture.md and the code`)
  process.exit(1)
}
console.log(
  `architecture: ${files} shipped source files import down the layers and declare what they import; ${concepts} concepts, each exported from the one file named`,
)
