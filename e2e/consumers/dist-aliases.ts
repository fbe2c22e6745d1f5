import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const dist = (folder: string, entry = 'index') => join(repo, folder, 'dist', `${entry}.js`)

/** `@threadlens/<package>[/<subpath>]` → that package's built file, as its `publishConfig.exports` maps it (run `npm run build` first). */
export const distAliases = [
  { find: /^@threadlens\/devtools\/production$/, replacement: dist('devtools', 'production') },
  { find: /^@threadlens\/devtools$/, replacement: dist('devtools') },
  { find: /^@threadlens\/(core|store|agent|client|react|ai-sdk|sync)\/([a-z-]+)$/, replacement: join(repo, 'packages', '$1', 'dist', '$2.js') },
  { find: /^@threadlens\/(core|store|agent|client|react|ai-sdk|sync)$/, replacement: join(repo, 'packages', '$1', 'dist', 'index.js') },
]
