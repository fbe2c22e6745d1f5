/** The memory key a note is saved under: the first words of the note, as a short slug. */
export function noteKey(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !['that', 'the', 'a', 'an', 'my', 'to', 'is', 'are', 'i', 'am', 'at', 'on', 'in', 'of', 'for'].includes(word))
  const key = words.slice(0, 4).join('-').slice(0, 40).replace(/-+$/, '')
  return key === '' ? 'note' : key
}
