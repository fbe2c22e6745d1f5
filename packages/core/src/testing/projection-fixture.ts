import type { ProjectedMessage, ProjectionMeta, ProjectionResult } from '../project/types'

/** A projection of hand-written messages with an empty `meta`: for testing what consumes projections. */
export function projectionOf(messages: readonly ProjectedMessage[], cache?: Partial<ProjectionMeta['cache']>): ProjectionResult {
  const meta: ProjectionMeta = {
    tokens: { system: 0, memory: 0, summary: 0, history: 0, recall: 0, pending: 0, tools: 0, total: 0, attachments: 0, estimated: false },
    budget: { maxInputTokens: 0, reserveOutputTokens: 0, input: 0, free: 0 },
    counter: { id: 'heuristic', exact: false },
    messages: [],
    includedSeqs: [],
    reduced: [],
    dropped: [],
    summary: undefined,
    summaryUsed: false,
    recall: undefined,
    memory: undefined,
    truncated: false,
    needsSummary: false,
    needsSummaryReason: undefined,
    overflow: false,
    unresolvedToolCalls: [],
    pinnedSeqs: [],
    prefixKey: '',
    // No caching unless a test asks: formats then give the same bytes as before caching existed.
    cache: {
      anthropic: 'off',
      openAI: 'off',
      ttl: '5m',
      key: undefined,
      reductionFloor: 0,
      previousReductionFloor: undefined,
      reducesLater: false,
      ...cache,
    },
    cacheWindowStart: undefined,
    entryCount: 0,
    firstSeq: 0,
  }
  return { messages, meta }
}
