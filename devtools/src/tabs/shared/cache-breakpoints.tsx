import type { ProjectionResult } from '@threadlens/core'
import { cacheBreakpoints, type CacheBreakpointReason } from '@threadlens/core/caching'
import { formatNumber } from '../../view-models/meter-parts'

/** Why each breakpoint is where it is, in words. */
export const breakpointReasons: Readonly<Record<CacheBreakpointReason, string>> = {
  'tools-and-system': 'end of tools + system prompt: the same on every call',
  'stable-base': 'end of memory / summary checkpoint: stable until the window moves',
  'previous-stable': 'where the last round of shortened tool results ended: what comes before it can still be read from the cache',
  'newest-stable': 'the newest message no later call will shorten',
  'request-end': 'end of the request: the next call repeats all of it and appends',
  'lookback-bridge': 'where the previous call ended: the newest turn adds more than the 20 blocks a breakpoint looks back',
}

/** Where a breakpoint sits: `message 25 · history · assistant #37`, or the tool schemas. */
export function breakpointPlace(result: ProjectionResult, at: number | 'tools'): string {
  if (at === 'tools') return 'last tool schema'
  const info = result.meta.messages[at]
  const message = result.messages[at]
  const role = message === undefined || message.role === info?.segment ? '' : ` · ${message.role}`
  return `message ${at + 1} · ${info?.segment ?? ''}${role}${info === undefined || info.seqs.length === 0 ? '' : ` #${info.seqs.join(', #')}`}`
}

/** The prompt-cache breakpoints the projection asks for: where each sits, why, its TTL, and the OpenAI cache key. */
export function CacheBreakpoints({ result }: { readonly result: ProjectionResult }) {
  const cache = result.meta.cache
  const placed = cacheBreakpoints(result)
  // Tokens up to and including each message: what a breakpoint there caches.
  const prefixTokens: number[] = []
  let running = result.meta.tokens.tools
  for (const info of result.meta.messages) prefixTokens.push((running += info.tokens))
  return (
    <div className="tl-card" data-testid="cache-breakpoints" data-mode={cache.anthropic} data-count={placed.anthropic.length}>
      <p>
        <strong>Prompt cache</strong>{' '}
        <span className="tl-muted">
          Anthropic{' '}
          {cache.anthropic === 'off'
            ? 'off: no cache_control sent'
            : cache.anthropic === 'auto'
              ? 'automatic mode (top-level cache_control) plus'
              : 'explicit'}
          {' · '}OpenAI prompt_cache_key {cache.key === undefined ? 'none' : <span className="tl-mono">{cache.key}</span>}
          {' · '}
          <span title={`reduction floor: #${cache.reductionFloor}`} data-testid="reduction-floor">
            tool results up to #{cache.reductionFloor} may be shortened; newer ones are left as they are, so the cached start of the request stays the
            same
          </span>
        </span>
      </p>
      <p className="tl-muted" data-testid="openai-breakpoints" data-count={placed.openAI.length}>
        OpenAI GPT-5.6 and later:{' '}
        {placed.openAI.length === 0
          ? 'no explicit markers'
          : placed.openAI.map((breakpoint) => `message ${(breakpoint.at as number) + 1} (${breakpoint.reason})`).join(', ')}{' '}
        + OpenAI's implicit breakpoint on the latest message
      </p>
      {placed.anthropic.length === 0 ? null : (
        <>
          <p className="tl-muted tl-bp-caption">Breakpoints: where each sits, why there, the tokens it caches (all before it) and how long.</p>
          <ul className="tl-bp-list">
            {placed.anthropic.map((breakpoint) => {
              const tokens = breakpoint.at === 'tools' ? result.meta.tokens.tools : (prefixTokens[breakpoint.at] ?? 0)
              return (
                <li key={`${breakpoint.at}`} className="tl-bp" data-testid="cache-breakpoint" data-reason={breakpoint.reason}>
                  <span className="tl-mono">{breakpointPlace(result, breakpoint.at)}</span>
                  <span className="tl-bp-why">{breakpointReasons[breakpoint.reason]}</span>
                  <span className="tl-num">caches {formatNumber(tokens)} tok</span>
                  <span className="tl-badge" title="how long the provider keeps it">
                    {breakpoint.ttl}
                  </span>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </div>
  )
}
