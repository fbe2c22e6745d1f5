// Prints every non-test source file (tests and testing/ helpers left out) over 300 lines and every function over 80 lines, and fails
// for any that does not carry a `// long: <reason>` comment.
// Usage: tsx .ci/source-limits.ts [--all]   (--all also lists the ones with a reason)
//
// A file's reason is a `// long:` comment in its first 10 lines. A function's reason is a
// `// long:` comment just above it (only comments and blank lines between, JSDoc included) or on
// its first body line.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parseSync } from 'vite'

const maxFileLines = 300
const maxFunctionLines = 80
const sourceRoots = ['packages/', 'devtools/src/', 'demo/src/']
const testFile = /(\.test\.tsx?|\.test-d\.tsx?)$/
// Test support (fake servers, harness pages, contract suites) ships in no package: it counts as test code.
const testSupport = /(^|\/)testing\//
const reasonPattern = /^\s*long:\s*\S/

interface Comment {
  readonly value: string
  readonly start: number
  readonly end: number
}

interface Finding {
  readonly kind: 'file' | 'function'
  readonly file: string
  /** The function's name (`<anonymous>` when it has none); empty for a file. */
  readonly name: string
  readonly line: number
  readonly lines: number
  readonly reason: string | undefined
}

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'], { encoding: 'utf8' })
  return listed
    .split('\n')
    .filter(
      (file) => file !== '' && sourceRoots.some((root) => file.startsWith(root)) && (file.startsWith('packages/') ? file.includes('/src/') : true),
    )
    .filter((file) => !testFile.test(file) && !testSupport.test(file) && !file.endsWith('.d.ts'))
    .sort()
}

/** Line starts, for offset → line lookups. */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) === 10) starts.push(index + 1)
  return starts
}

function lineOf(starts: readonly number[], offset: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((starts[middle] ?? 0) <= offset) low = middle
    else high = middle - 1
  }
  return low + 1
}

function reasonOf(comment: Comment | undefined): string | undefined {
  return comment !== undefined && reasonPattern.test(comment.value) ? comment.value.replace(/^\s*long:\s*/, '').trim() : undefined
}

type Node = { readonly type: string; readonly start: number; readonly end: number; readonly [key: string]: unknown }

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    typeof (value as { start?: unknown }).start === 'number'
  )
}

const functionTypes = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'])

function keyName(key: unknown): string | undefined {
  if (!isNode(key)) return undefined
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return String(key['name'])
  if (key.type === 'Literal') return String(key['value'])
  return undefined
}

/** A function's name from itself or where it is held (variable, property, method, class field). */
function functionName(node: Node, parent: Node | undefined): string {
  const own = isNode(node['id']) ? keyName(node['id']) : undefined
  if (own !== undefined) return own
  if (parent === undefined) return '<anonymous>'
  if (parent.type === 'VariableDeclarator') return keyName(parent['id']) ?? '<anonymous>'
  if (['Property', 'MethodDefinition', 'PropertyDefinition'].includes(parent.type)) return keyName(parent['key']) ?? '<anonymous>'
  if (parent.type === 'CallExpression') {
    const callee = parent['callee']
    const calleeName = isNode(callee) ? (keyName(callee) ?? keyName(callee['property'])) : undefined
    return calleeName === undefined ? '<callback>' : `<${calleeName} callback>`
  }
  return '<anonymous>'
}

function* functionsOf(node: Node, parent: Node | undefined): Generator<{ node: Node; name: string }> {
  if (functionTypes.has(node.type)) yield { node, name: functionName(node, parent) }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue
    const children = Array.isArray(value) ? value : [value]
    for (const child of children) if (isNode(child)) yield* functionsOf(child, node)
  }
}

/** The `// long:` comment above `offset`'s line (through comments and blank lines) or on the line after it. */
function functionReason(text: string, starts: readonly number[], comments: readonly Comment[], offset: number): string | undefined {
  const line = lineOf(starts, offset)
  let anchor = starts[line - 1] ?? 0
  for (let index = comments.length - 1; index >= 0; index -= 1) {
    const comment = comments[index] as Comment
    if (comment.end > anchor) {
      const commentLine = lineOf(starts, comment.start)
      if (commentLine === line + 1 || commentLine === line) {
        const reason = reasonOf(comment)
        if (reason !== undefined) return reason
      }
      continue
    }
    if (text.slice(comment.end, anchor).trim() !== '') return undefined
    const reason = reasonOf(comment)
    if (reason !== undefined) return reason
    anchor = comment.start
  }
  return undefined
}

function findingsOf(file: string): Finding[] {
  const text = readFileSync(file, 'utf8')
  const starts = lineStarts(text)
  const parsed = parseSync(file, text, { sourceType: 'module' })
  if (parsed.errors.length > 0) throw new Error(`${file}: cannot parse: ${parsed.errors[0]?.message}`)
  const comments: Comment[] = parsed.comments.map((comment) => ({ value: comment.value, start: comment.start, end: comment.end }))
  const findings: Finding[] = []
  const fileLines = text.endsWith('\n') ? starts.length - 1 : starts.length
  if (fileLines > maxFileLines) {
    const reason = comments
      .filter((comment) => lineOf(starts, comment.start) <= 10)
      .map(reasonOf)
      .find((found) => found !== undefined)
    findings.push({ kind: 'file', file, name: '', line: 1, lines: fileLines, reason })
  }
  for (const { node, name } of functionsOf(parsed.program as unknown as Node, undefined)) {
    const first = lineOf(starts, node.start)
    const lines = lineOf(starts, node.end) - first + 1
    if (lines > maxFunctionLines)
      findings.push({ kind: 'function', file, name, line: first, lines, reason: functionReason(text, starts, comments, node.start) })
  }
  return findings
}

const showAll = process.argv.includes('--all')
const findings = sourceFiles().flatMap(findingsOf)
let failures = 0
for (const finding of findings) {
  const where =
    finding.kind === 'file' ? `${finding.file}: ${finding.lines} lines` : `${finding.file}:${finding.line} ${finding.name}(): ${finding.lines} lines`
  if (finding.reason !== undefined) {
    if (showAll) console.log(`  long, with a reason   ${where} (${finding.reason})`)
  } else {
    failures += 1
    console.log(`✗ too long             ${where}: split it, or say why with a "// long: <reason>" comment`)
  }
}
console.log(
  `source limits: ${findings.filter((finding) => finding.kind === 'file').length} files over ${maxFileLines} lines, ` +
    `${findings.filter((finding) => finding.kind === 'function').length} functions over ${maxFunctionLines} lines; ` +
    `${failures} without a reason`,
)
if (failures > 0) process.exit(1)
