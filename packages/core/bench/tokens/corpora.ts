import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Public text none of it written for threadlens, to measure the token estimate against:
// conversations (LoCoMo), an agent's recorded tool calls (tau-bench), READMEs and TypeScript
// sources of the installed packages, their package.json files, and UI strings in about 40
// languages (axe-core's and yargs's locales).

const here = dirname(fileURLToPath(import.meta.url))

function files(dir: string, pick: (path: string) => boolean, out: string[], limit: number): string[] {
  let names: string[]
  try {
    names = readdirSync(dir).sort()
  } catch {
    return out
  }
  for (const name of names) {
    if (out.length >= limit) break
    const path = join(dir, name)
    const stat = statSync(path, { throwIfNoEntry: false })
    if (stat === undefined) continue
    if (stat.isDirectory()) files(path, pick, out, limit)
    else if (pick(path) && stat.size < 200_000) out.push(path)
  }
  return out
}

function strings(json: unknown, out: string[]): string[] {
  JSON.stringify(json, (_key, value: unknown) => {
    if (typeof value === 'string' && value.length > 0) out.push(value)
    return value
  })
  return out
}

/** An installed package's folder in pnpm's store (axe-core and yargs come with the test tools). */
function packageDir(store: string, name: string): string {
  const folder = readdirSync(store).find((entry) => entry.startsWith(`${name}@`))
  if (folder === undefined) throw new Error(`${name} is not installed: run the install first`)
  return join(store, folder, 'node_modules', name)
}

export function corpora(): Record<string, readonly string[]> {
  const locomo: string[] = []
  for (const name of ['26', '30', '41']) {
    const data = JSON.parse(readFileSync(join(here, `../fixtures/locomo/${name}.json`), 'utf8')) as { conversation?: Record<string, unknown> }
    for (const value of Object.values(data.conversation ?? data)) {
      if (Array.isArray(value)) for (const turn of value as { text?: unknown }[]) if (typeof turn.text === 'string') locomo.push(turn.text)
    }
  }
  const tau = strings(JSON.parse(readFileSync(join(here, '../../src/formats/fixtures/recorded/tau-bench-gpt-4o-airline.json'), 'utf8')), [])
  const store = join(here, '../../../../node_modules/.pnpm')
  const readmes = files(store, (path) => /README\.md$/i.test(path), [], 150).flatMap((path) => readFileSync(path, 'utf8').split(/\n\n+/))
  const code = files(store, (path) => /\/src\/.*\.ts$/.test(path) && !path.endsWith('.d.ts'), [], 200).map((path) => readFileSync(path, 'utf8'))
  const json = files(store, (path) => path.endsWith('/package.json'), [], 200).map((path) => readFileSync(path, 'utf8'))
  const locales: string[] = []
  for (const dir of [join(packageDir(store, 'axe-core'), 'locales'), join(packageDir(store, 'yargs'), 'locales')]) {
    for (const name of readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort())
      strings(JSON.parse(readFileSync(join(dir, name), 'utf8')), locales)
  }
  return { locomo, 'tau-bench': tau, readmes, code, 'package.json': json, locales }
}
