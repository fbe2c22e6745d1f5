// `npm run size` (bundle-sizes.ts --explain): what each behaviour of core's first line costs, found by
// building that line again with one module of the built package replaced by a stand-in that keeps its
// exports and drops its work. The stand-ins exist only inside this measurement; the saving printed is
// what leaving that behaviour off the first line would take off an app's download.
import type { Plugin } from 'vite'

export interface Behaviour {
  readonly name: string
  /** The built module (under packages/core/dist/) the stand-in replaces. */
  readonly module: string
  readonly standIn: string
}

export const firstLineBehaviours: readonly Behaviour[] = [
  {
    name: 'the checks an appended entry goes through (JSON data, entry and part rules, limits)',
    module: 'entries/entry-schema.js',
    standIn: 'const same = (input) => input\nexport { same as parseEntry, same as parseEntryInput, same as readEntryData }',
  },
  {
    name: "older tool results deduped, masked, reduced to their outcome or pruned (every preset's toolTrace/dedupe/prune)",
    module: 'project/reductions.js',
    standIn:
      'const whole = { omitTools: false, resultTexts: [], reductions: [] }\n' +
      'export const planUnit = () => whole\nexport const reducesLater = () => false\n' +
      'export const reducedResultTokens = (entry, text, counter) => 3 + counter.count(text)',
  },
  {
    name: 'memory spaces rendered into the memory segment',
    module: 'memory/render-memory.js',
    standIn: "export const renderMemory = () => ({ text: '', tokens: 0, spaces: [], omitted: [] })",
  },
  {
    name: 'image and file token counts (provider rules for pixels, tiles and PDF pages)',
    module: 'parts/attachment-tokens.js',
    standIn: 'const none = () => 0\nexport { none as attachmentTokens, none as imageTokens, none as fileTokens }',
  },
]

/** A Vite plugin that serves `behaviour.standIn` for its module of core's built package. */
export function without(behaviour: Behaviour): Plugin {
  const suffix = `/packages/core/dist/${behaviour.module}`
  return { name: 'first-line-price', enforce: 'pre', load: (id) => (id.endsWith(suffix) ? behaviour.standIn : undefined) }
}
