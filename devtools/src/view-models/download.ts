// Repeated on purpose: the same helper as demo/src/chat/threads/thread-files.ts (the demo uses the packages' public APIs only,
// and the devtools do not export a file download).
/**
 * Saves text as a file through a temporary object URL. The link is never put in the page and only
 * ever points at a blob: URL the devtools made, so nothing from the thread can become a link.
 */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.click()
  // Revoked on the next task: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** A file-name-safe version of an id. */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 80) || 'thread'
}
