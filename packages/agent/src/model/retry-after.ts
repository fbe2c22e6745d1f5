/**
 * How long a 429 or 503 response asks the client to wait, in milliseconds, read in this order:
 * `retry-after-ms` (OpenAI, Anthropic), `retry-after` (seconds or an HTTP date), then the
 * rate limit reset headers: OpenAI's `x-ratelimit-reset-{requests,tokens}` durations (`1s`,
 * `6m0s`, `20ms`) and Anthropic's `anthropic-ratelimit-*-reset` timestamps. Where several reset
 * headers apply, the one whose limit is used up wins, else the longest. `undefined` when none says.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const milliseconds = nonNegative(Number.parseFloat(headers.get('retry-after-ms') ?? ''))
  if (milliseconds !== undefined) return milliseconds

  const retryAfter = headers.get('retry-after')?.trim()
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number.parseFloat(retryAfter) * 1000
    const date = Date.parse(retryAfter)
    if (!Number.isNaN(date)) return Math.max(0, date - now)
  }

  const resets: { ms: number; exhausted: boolean }[] = []
  for (const limit of ['requests', 'tokens']) {
    const ms = parseDuration(headers.get(`x-ratelimit-reset-${limit}`))
    if (ms !== undefined) resets.push({ ms, exhausted: headers.get(`x-ratelimit-remaining-${limit}`)?.trim() === '0' })
  }
  for (const limit of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
    const at = Date.parse(headers.get(`anthropic-ratelimit-${limit}-reset`) ?? '')
    if (!Number.isNaN(at)) {
      resets.push({ ms: Math.max(0, at - now), exhausted: headers.get(`anthropic-ratelimit-${limit}-remaining`)?.trim() === '0' })
    }
  }
  const exhausted = resets.filter((reset) => reset.exhausted)
  const candidates = exhausted.length > 0 ? exhausted : resets
  if (candidates.length === 0) return undefined
  return Math.max(...candidates.map((reset) => reset.ms))
}

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

// OpenAI's reset durations: one or more `<number><unit>` parts, e.g. `1m30.5s`.
function parseDuration(text: string | null): number | undefined {
  const trimmed = text?.trim() ?? ''
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(trimmed)) return undefined
  let total = 0
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number.parseFloat(match[1] as string) * (durationUnits[match[2] as string] as number)
  }
  return total
}

function nonNegative(value: number): number | undefined {
  return Number.isFinite(value) && value >= 0 ? value : undefined
}
