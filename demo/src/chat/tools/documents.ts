/** The long documents `read_document` returns: deterministic, thousands of lines. */

const sections = ['Summary', 'Revenue by region', 'Costs', 'Hiring', 'Customer support', 'Infrastructure', 'Risks', 'Outlook']
const regions = ['North', 'South', 'East', 'West', 'Central']

/** Default length of a document, in lines: far above every policy's tool output limit. */
export const DOCUMENT_LINES = 3000

/** The text of the document called `name`: a title, then `lines` numbered lines in sections. */
export function documentText(name: string, lines = DOCUMENT_LINES): string {
  const title = name.trim() === '' ? 'report' : name.trim()
  const out = [`# ${title}`, `${lines} lines · generated for the threadlens demo`]
  let seed = 0
  for (const character of title) seed = (seed * 31 + (character.codePointAt(0) ?? 0)) % 1_000_003
  for (let line = 1; line <= lines; line++) {
    const section = sections[Math.floor(((line - 1) / lines) * sections.length)] as string
    if ((line - 1) % Math.ceil(lines / sections.length) === 0) out.push(`## ${section}`)
    const region = regions[(line + seed) % regions.length] as string
    const amount = ((line * 7919 + seed) % 90_000) + 10_000
    const change = (((line * 37 + seed) % 41) - 20) / 2
    out.push(
      `${String(line).padStart(4, '0')} ${section.toLowerCase()}: ${region} ${amount.toLocaleString('en-US')} EUR (${change >= 0 ? '+' : ''}${change.toFixed(1)}% vs last quarter) — ${title}`,
    )
  }
  out.push(`End of ${title}.`)
  return out.join('\n')
}
