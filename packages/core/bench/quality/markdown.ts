// Tables as markdown, so BENCHMARKS.md can take them as printed.

export function markdownTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(3, cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number))).join(' | ')} |`
  const rule = `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`
  return ['', `**${title}**`, '', line(header), rule, ...rows.map(line)].join('\n')
}

export const percent = (share: number): string => (Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : '–')
export const integer = (value: number): string => Math.round(value).toLocaleString('en-US')
