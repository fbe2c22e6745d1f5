/** Saves text as a file through a temporary blob: URL; the link never enters the page. */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** A file name from a title: letters, digits, `-` and `_` only. */
export function fileNameOf(title: string, extension: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${base === '' ? 'chat' : base}.${extension}`
}

/**
 * The export with the title the user sees: a rename lives outside the thread record (see
 * thread-titles.ts), so the header line of the JSONL is given the shown title.
 */
export function withTitle(jsonl: string, title: string): string {
  const end = jsonl.indexOf('\n')
  const header = JSON.parse(end === -1 ? jsonl : jsonl.slice(0, end)) as { thread: { title: string } }
  header.thread.title = title
  return `${JSON.stringify(header)}${end === -1 ? '\n' : jsonl.slice(end)}`
}

/** Import titles for message arrays (they carry none): the file's name without its extension. */
export function titleFromFileName(name: string): string {
  return name.replace(/\.(?:jsonl|json)$/i, '').slice(0, 200)
}
