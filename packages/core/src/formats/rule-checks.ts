// The checkers read their input as untyped data: they exist to catch what the types cannot promise.
export type UntypedObject = { readonly [key: string]: unknown }

export function isRecord(value: unknown): value is UntypedObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isPlainObjectJson(text: string): boolean {
  try {
    return isRecord(JSON.parse(text))
  } catch {
    return false
  }
}
