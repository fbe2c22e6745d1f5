/**
 * UTF-8 text from base64, standard or URL-safe, as both provider formats need for a text file.
 * Lenient like a data: URL reader: characters outside the alphabet (padding, line breaks) are
 * skipped and a lone last digit (no whole byte) is dropped, so nothing malformed throws; bytes that
 * are not UTF-8 become U+FFFD. `atob` and `TextDecoder` exist in every runtime core supports.
 */
export function base64Utf8(data: string): string {
  const digits = data.replace(/[^A-Za-z0-9+/_-]/g, '').replace(/[-_]/g, (digit) => (digit === '-' ? '+' : '/'))
  const binary = atob(digits.length % 4 === 1 ? digits.slice(0, -1) : digits)
  const bytes = new Uint8Array(binary.length)
  for (let position = 0; position < binary.length; position++) bytes[position] = binary.charCodeAt(position)
  return new TextDecoder().decode(bytes)
}
