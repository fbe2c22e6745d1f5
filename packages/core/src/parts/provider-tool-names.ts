import { isValidToolName } from '../entries/tool-name'
import type { ProjectionResult } from '../project/types'
import { fnv1aHex } from '../utils/hash'

/**
 * How one request names its tools on the wire. Names that match the rule (`toolNamePattern`) are
 * sent as they are; names stored before the rule existed (`web.search`, `get weather`, longer than
 * 64) get a provider-safe stand-in, and a reply's tool calls are read back through `fromProvider`.
 */
export interface ProviderToolNames {
  /** The name to send for a stored name. Names not in the mapping are returned as they are. */
  toProvider(name: string): string
  /** The stored name a provider's name stands for. Names not in the mapping are returned as they are. */
  fromProvider(name: string): string
  /** Stored name → stand-in, for the names that needed one; empty when every name was valid. */
  readonly renamed: ReadonlyMap<string, string>
}

/**
 * The wire names for a request: every tool name in the projection's messages, plus `extraNames`
 * (the tool schemas sent beside them). Deterministic (depends only on the set of names), injective
 * within the request by construction (a stand-in never equals a valid name or another stand-in), and
 * stable in practice: a stand-in is the name with each refused character as `_`, cut to fit, plus
 * `_` and an 8-hex-digit hash of the whole name; only a collision (vanishingly rare) adds a counter.
 */
export function providerToolNames(result: ProjectionResult | undefined, extraNames: Iterable<string> = []): ProviderToolNames {
  const names = new Set<string>(extraNames)
  for (const message of result?.messages ?? []) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) names.add(call.name)
    else if (message.role === 'tool') names.add(message.name)
  }
  return toolNameMapping(names)
}

/** `providerToolNames` over a plain set of names. */
export function toolNameMapping(names: Iterable<string>): ProviderToolNames {
  const unique = [...new Set(names)]
  const taken = new Set(unique.filter(isValidToolName))
  // Sorted, so the mapping does not depend on the order names were met in.
  const broken = unique.filter((name) => !isValidToolName(name)).sort()
  const renamed = new Map<string, string>()
  const back = new Map<string, string>()
  for (const name of broken) {
    // Every attempt gives a different string, and at most `taken.size` of them can be taken: bounded.
    for (let attempt = 0; attempt <= taken.size; attempt += 1) {
      const candidate = standIn(name, attempt)
      if (taken.has(candidate)) continue
      taken.add(candidate)
      renamed.set(name, candidate)
      back.set(candidate, name)
      break
    }
  }
  return {
    toProvider: (name) => renamed.get(name) ?? name,
    fromProvider: (name) => back.get(name) ?? name,
    renamed,
  }
}

function standIn(name: string, attempt: number): string {
  // The tail ends in hex digits on attempt 0 and in `_<attempt>` after: no two attempts meet.
  const tail = `_${fnv1aHex(name)}${attempt === 0 ? '' : `_${attempt}`}`
  let sanitized = ''
  for (const character of name) sanitized += /[a-zA-Z0-9_-]/.test(character) ? character : '_'
  return sanitized.slice(0, 64 - tail.length) + tail
}
