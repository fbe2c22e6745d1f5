// Every runtime core supports has `TextEncoder` (see platform-globals.d.ts); made on first use.
let encoder: TextEncoder | undefined

/** UTF-8 length of a string (a lone surrogate counts 3 bytes, as U+FFFD: what `TextEncoder` writes). */
export function utf8Length(text: string): number {
  return (encoder ??= new TextEncoder()).encode(text).length
}
