const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes base64 (standard or URL-safe) UTF-8 text. Core has no atob/TextDecoder guarantee (it runs anywhere). */
export function base64Utf8(data: string): string {
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const character of data) {
    const value = base64Alphabet.indexOf(character === '-' ? '+' : character === '_' ? '/' : character)
    if (value < 0) continue
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes.push((buffer >> bits) & 0xff)
    }
  }
  let text = ''
  for (let index = 0; index < bytes.length; ) {
    const first = bytes[index] as number
    const length = first < 0x80 ? 1 : first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1
    let code = length === 1 ? first : first & (0xff >> (length + 1))
    for (let next = 1; next < length; next += 1) code = (code << 6) | ((bytes[index + next] ?? 0) & 0x3f)
    text += String.fromCodePoint(code > 0x10ffff ? 0xfffd : code)
    index += length
  }
  return text
}
