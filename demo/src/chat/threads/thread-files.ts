// Repeated on purpose: the same helper as devtools/src/view-models/download.ts (the demo uses the packages' public APIs only,
// and a file download is not part of any).
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

/** Import titles for message arrays (they carry none): the file's name without its extension. */
export function titleFromFileName(name: string): string {
  return name.replace(/\.(?:jsonl|json)$/i, '').slice(0, 200)
}
