/** UTF-8 length of a string without encoding it (a lone surrogate counts 3 bytes, as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && position + 1 < text.length) {
      const next = text.charCodeAt(position + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        position++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}
