import { createSessionSource } from '@threadlens/client'
import { describe, expect, it } from 'vitest'
import { conversation, renderPanel, testPolicy } from '../../testing/panel-harness'

describe('Calls tab: predicted vs reported prompt cache', () => {
  it('sets each call’s predicted cache reads beside the reported ones', async () => {
    const session = createSessionSource({
      status: 'idle',
      threadId: 'unused',
      calls: [
        // A few hundred tokens: under OpenAI's 1,024 minimum nothing is predicted cached, and 64 reported is within noise.
        {
          callId: 'c1',
          policy: testPolicy({ name: 'recorded' }),
          model: 'gpt-4o-mini',
          usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64 },
          stopReason: 'stop',
        },
      ],
    })
    const panel = await renderPanel({ entries: conversation(3), tab: 'calls', session })
    const card = await panel.find('cache-predictions')
    expect(card.dataset['misses']).toBe('0')
    const verdicts = panel.queryAll('[data-testid="cache-prediction"]').map((row) => row.dataset['verdict'])
    expect(verdicts).toHaveLength(4)
    expect(verdicts.filter((verdict) => verdict === 'as-predicted')).toHaveLength(1)
    expect(verdicts.filter((verdict) => verdict === 'not-reported')).toHaveLength(3)
    panel.unmount()
  })
})
