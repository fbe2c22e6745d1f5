// Core compiles with neither the DOM lib nor Node's types (tsconfig.json: `lib: ["ES2023"]`,
// `types: []`), so a use of `document`, `window`, `Buffer` or `fetch` fails to compile. These are
// the few web-platform globals it does use, present in every runtime it supports (browsers,
// workers, Node 20+, Deno, Bun), declared with only the members core calls.

interface AbortSignal {
  readonly aborted: boolean
  readonly reason: unknown
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}
declare var AbortSignal: {
  readonly prototype: AbortSignal
  timeout(milliseconds: number): AbortSignal
  any(signals: readonly AbortSignal[]): AbortSignal
}

interface TextEncoder {
  encode(input?: string): Uint8Array
}
declare var TextEncoder: { readonly prototype: TextEncoder; new (): TextEncoder }

interface TextDecoder {
  decode(input?: Uint8Array): string
}
declare var TextDecoder: { readonly prototype: TextDecoder; new (label?: string): TextDecoder }

declare function atob(data: string): string

declare var crypto: { randomUUID(): `${string}-${string}-${string}-${string}-${string}` }
