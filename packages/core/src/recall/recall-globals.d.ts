// The web-platform globals the hybrid recall index uses beside those of src/platform-globals.d.ts
// (core compiles with neither the DOM lib nor Node's types), declared with only the members it
// calls. Present in every runtime core supports (browsers, workers, Node 20+, Deno, Bun).

interface AbortController {
  readonly signal: AbortSignal
  abort(reason?: unknown): void
}
declare var AbortController: { readonly prototype: AbortController; new (): AbortController }

declare function setTimeout(handler: () => void, timeout: number): unknown
declare function clearTimeout(handle: unknown): void
