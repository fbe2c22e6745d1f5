export interface Shortcut {
  readonly alt: boolean
  readonly ctrl: boolean
  readonly meta: boolean
  readonly shift: boolean
  /** `KeyboardEvent.code` to match, e.g. `KeyD`, `Digit1`, `Period`. */
  readonly code: string
}

const namedCodes: Readonly<Record<string, string>> = { '.': 'Period', ',': 'Comma', '/': 'Slash', '`': 'Backquote', ';': 'Semicolon' }

/**
 * Parses `alt+shift+d`, `ctrl+.`, `meta+k`. Matching uses `event.code`, so a modifier that changes
 * the typed character (Alt on macOS) still matches. Throws a message naming the fix on bad input.
 */
export function parseShortcut(text: string): Shortcut {
  const parts = text
    .toLowerCase()
    .split('+')
    .map((part) => part.trim())
    .filter((part) => part !== '')
  const key = parts.pop()
  const modifiers = new Set(parts)
  for (const modifier of modifiers) {
    if (!['alt', 'ctrl', 'meta', 'shift'].includes(modifier))
      throw new Error(`[threadlens] shortcut "${text}": unknown modifier "${modifier}"; use alt, ctrl, meta or shift`)
  }
  let code: string | undefined
  if (key !== undefined && /^[a-z]$/.test(key)) code = `Key${key.toUpperCase()}`
  else if (key !== undefined && /^[0-9]$/.test(key)) code = `Digit${key}`
  else if (key !== undefined) code = namedCodes[key]
  if (code === undefined) throw new Error(`[threadlens] shortcut "${text}": end it with a letter, a digit or one of . , / \` ;`)
  return { alt: modifiers.has('alt'), ctrl: modifiers.has('ctrl'), meta: modifiers.has('meta'), shift: modifiers.has('shift'), code }
}

export function matchesShortcut(event: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code'>, shortcut: Shortcut): boolean {
  return (
    event.code === shortcut.code &&
    event.altKey === shortcut.alt &&
    event.ctrlKey === shortcut.ctrl &&
    event.metaKey === shortcut.meta &&
    event.shiftKey === shortcut.shift
  )
}
