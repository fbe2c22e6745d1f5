import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'
import { describe, expect, it } from 'vitest'

const source = fileURLToPath(new URL('.', import.meta.url))

/** Builds a two-line app that renders the given export (`component`), in production mode, and returns its chunks. */
async function buildApp(specifier: string, component = 'ThreadlensDevtools', props: object = { threadId: 't' }): Promise<Rolldown.OutputChunk[]> {
  const folder = mkdtempSync(join(tmpdir(), 'threadlens-gate-'))
  const entry = join(folder, 'app.tsx')
  writeFileSync(
    entry,
    `import { ${component} } from ${JSON.stringify(join(source, specifier))}\nimport { createElement } from 'react'\nconsole.log(createElement(${component}, ${JSON.stringify(props)}))\n`,
  )
  // Vitest runs with NODE_ENV=test, and Vite takes NODE_ENV from the environment: build as an app would.
  const previous = process.env['NODE_ENV']
  process.env['NODE_ENV'] = 'production'
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    root: folder,
    resolve: { alias: { react: fileURLToPath(new URL('../node_modules/react', import.meta.url)) } },
    // An app build, as a user's: Vite replaces process.env.NODE_ENV there.
    build: { write: false, rollupOptions: { input: entry, external: [/^react/, /^@threadlens\//, /^zustand/, /^@tanstack\//] } },
  }).finally(() => {
    process.env['NODE_ENV'] = previous
  })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput
  const outputs = Array.isArray(output) ? output : [output]
  return outputs.flatMap((item) => item.output).filter((chunk): chunk is Rolldown.OutputChunk => chunk.type === 'chunk')
}

describe('production builds', () => {
  it('the root export renders nothing and ships neither the shell nor the panel', async () => {
    const chunks = await buildApp('index.ts')
    const code = chunks.map((chunk) => chunk.code).join('\n')
    expect(chunks.length).toBe(1)
    expect(code).not.toContain('attachShadow')
    expect(code).not.toContain('Open threadlens devtools')
  }, 60_000)

  it('the production subpath ships the shell, with the panel as a separate lazy chunk', async () => {
    const chunks = await buildApp('production.ts')
    const entry = chunks.find((chunk) => chunk.isEntry) as Rolldown.OutputChunk
    expect(entry.code).toContain('attachShadow')
    expect(entry.code).toContain('Open threadlens devtools')
    const panel = chunks.find((chunk) => !chunk.isEntry && chunk.code.includes('tl-timeline-row'))
    expect(panel).toBeDefined()
    expect(entry.code).not.toContain('tl-timeline-row')
  }, 60_000)

  it('the token meter is an app component: the root export ships it and renders it in production too', async () => {
    const chunks = await buildApp('index.ts', 'ThreadlensTokenMeter', { meta: undefined })
    const code = chunks.map((chunk) => chunk.code).join('\n')
    expect(chunks.length).toBe(1)
    expect(code).toContain('attachShadow')
    expect(code).toContain('tl-meter-bar')
    expect(code).toContain('counting tokens')
    // Neither the devtools shell nor the panel comes with it.
    expect(code).not.toContain('Open threadlens devtools')
    expect(code).not.toContain('tl-timeline-row')
  }, 60_000)
})
