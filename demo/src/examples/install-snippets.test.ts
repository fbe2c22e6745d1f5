import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
const consumerApp = (path: string) => readFileSync(new URL(`../../../e2e/consumers/apps/${path}`, import.meta.url), 'utf8')

/** The fenced block right after `<!-- example: NAME -->` in the README. */
function readmeBlock(name: string): string {
  const marker = `<!-- example: ${name} -->`
  const start = readme.indexOf(marker)
  if (start < 0) throw new Error(`README has no ${marker}`)
  const fence = '```tsx\n'
  const open = readme.indexOf(fence, start) + fence.length
  return readme.slice(open, readme.indexOf('```', open))
}

// The consumer test (e2e/consumers/run-consumers.ts) builds these files against the packed packages
// and drives them in Chromium, so the README's install snippets are apps that work.
describe('README "Install in your app" snippets', () => {
  it.each([
    ['install-vite', 'vite-app/src/main.tsx'],
    ['install-next-chat', 'next-app/app/chat.tsx'],
    ['install-next-page', 'next-app/app/page.tsx'],
  ])('%s is the consumer app file %s, word for word', (name, path) => {
    expect(readmeBlock(name)).toBe(consumerApp(path))
  })
})
