import { z } from 'zod/mini'
import { formatIssues, safeParse } from '@threadlens/core/internal'
import { InvalidModelClientOptionsError } from './errors'
import type { FetchFunction } from './http-stream'
import type { RetryNotice } from './stream-with-retries'

export const httpURLSchema = z.string().check(
  z.refine((value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:'
    } catch {
      return false
    }
  }, 'must be an absolute http(s) URL'),
)

export const headersSchema: z.ZodMiniType<Readonly<Record<string, string>>> = z.record(z.string(), z.string())
export const fetchSchema = z.custom<FetchFunction>((value) => typeof value === 'function', 'must be a fetch function')
export const onRetrySchema = z.custom<(notice: RetryNotice) => void>((value) => typeof value === 'function', 'must be a function')

/**
 * Validates client options; a failure names each bad option and never quotes a value (an API key
 * in the wrong field must not end up in an error message).
 */
export function parseClientOptions<T>(client: string, schema: z.ZodMiniType<T>, options: unknown): T {
  // Issues never carry the input (zod's `reportInput` is off by default).
  const parsed = safeParse(schema, options)
  if (parsed.success) return parsed.data
  throw new InvalidModelClientOptionsError(client, formatIssues(parsed.error))
}

// Header values that carry credentials, so errors can scrub them as they scrub `apiKey`.
const credentialHeader = /auth|key|token|secret|cookie/i

/** The API key and any credential-looking header values (and their bearer tokens): never to appear in an error. */
export function secretsOf(apiKey: string | undefined, headers: Readonly<Record<string, string>> | undefined): string[] {
  const secrets: string[] = []
  if (apiKey !== undefined && apiKey !== '') secrets.push(apiKey)
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!credentialHeader.test(name) || value.trim() === '') continue
    secrets.push(value)
    const token = /^\s*\w+\s+(\S+)\s*$/.exec(value)?.[1]
    if (token !== undefined) secrets.push(token)
  }
  // Longest first, so a bearer token never leaves part of its header value behind.
  return secrets.sort((a, b) => b.length - a.length)
}
