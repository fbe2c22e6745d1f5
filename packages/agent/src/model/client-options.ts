import { custom, flag, problemIssue, read, record, string, type Reader } from '@threadlens/core/internal'
import { InvalidModelClientOptionsError } from './errors'
import type { FetchFunction } from './http-stream'
import type { RetryNotice } from './stream-with-retries'

const anyString = string()

/** A string of at least one character; `rule` says what it must be. */
export function nonEmpty(rule: string): Reader<string> {
  return (value, at) => {
    const text = anyString(value, at)
    if (text.length === 0) flag(at, rule)
    return text
  }
}

export const httpURL: Reader<string> = (value, at) => {
  const text = anyString(value, at)
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') flag(at, 'must be an absolute http(s) URL')
  return text
}

export const headersReader: Reader<Readonly<Record<string, string>>> = record(anyString, anyString)
export const fetchReader = custom<FetchFunction>((value) => typeof value === 'function', 'must be a fetch function')
export const onRetryReader = custom<(notice: RetryNotice) => void>((value) => typeof value === 'function', 'must be a function')

/**
 * Validates client options; a failure names the first bad option and never quotes a value (an API
 * key in the wrong field must not end up in an error message).
 */
export function parseClientOptions<T>(client: string, reader: Reader<T>, options: unknown): T {
  // The readers' rules never carry the value they read.
  const result = read(reader, options)
  if (result.ok) return result.value
  throw new InvalidModelClientOptionsError(client, [problemIssue(result.problem)])
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
