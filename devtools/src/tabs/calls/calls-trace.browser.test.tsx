import { createTokenCounter, project, type EntryInput } from '@threadlens/core'
import { callRecord, StoredHashes, type CallAttempt, type CallAttemptError, type CallTiming } from '@threadlens/core/calls'
import { testCallOptions } from '@threadlens/testing'
import { page } from 'vitest/browser'
import { describe, expect, it } from 'vitest'
import { eventually, renderPanel, testPolicy, type Harness } from '../../testing/panel-harness'
import { unansweredAttempt } from '../../testing/varied-threads'

// A thread as the agent leaves it after a call retried twice and a call that failed for good (and,
// with `aborted`, a last call the user stopped): answered calls on the thread (meta.call), the rest
// in the call log, a calibration per model.
async function seeded({ aborted = false } = {}) {
  const counter = await createTokenCounter('heuristic')
  const policy = testPolicy({ systemPrompt: 'Be brief.' })
  const harness = await renderPanel({ tab: 'calls', policy, entries: [], width: 1440, height: 700 })
  const { stores, threadId } = harness
  const stored = new StoredHashes()
  const attempts: CallAttempt[] = []
  const start = Date.UTC(2026, 10, 23, 8, 0, 0)
  for (let turn = 0; turn < (aborted ? 4 : 3); turn++) {
    const [question] = await stores.threads.appendMany(threadId, [
      { kind: 'message', payload: { role: 'user', content: `question ${turn} ${'about the harbour '.repeat(8)}` } },
    ])
    const thread = await stores.threads.load(threadId)
    const projection = project({ thread, policy, counter, tools: [] })
    const base = testCallOptions({ model: 'claude-sonnet-4-5', provider: 'anthropic', counter, policy, projection, basisSeq: thread.nextSeq, stored })
    const startedAt = start + turn * 60_000
    const callId = `call-${turn}`
    const call = { threadId, callId, requestId: `r${turn}` }
    const logAttempt = (attempt: number, status: CallAttempt['status'], timing: CallTiming, error: CallAttemptError) =>
      attempts.push(unansweredAttempt(base, call, attempt, status, timing, error))
    if (turn === 1) {
      const retries = [
        { name: 'RateLimitError', message: 'rate limited: retry after 2 s', status: 429 },
        { name: 'ProviderServerError', message: 'overloaded', status: 529 },
      ]
      retries.forEach((error, index) =>
        logAttempt(index + 1, 'retried', { startedAt: startedAt + index * 2_000, durationMs: 300, attempts: index + 1 }, error),
      )
    }
    if (turn === 2) {
      logAttempt(1, 'failed', { startedAt, durationMs: 120, attempts: 1 }, { name: 'ProviderAuthError', message: 'invalid x-api-key', status: 401 })
      continue
    }
    if (turn === 3) {
      // Stopped by the user 2.1 s in, after the first token: the agent logs it with the abort's error.
      const stopped = { name: 'AbortError', message: 'The request was aborted.' }
      logAttempt(1, 'aborted', { startedAt, firstTokenMs: 380, durationMs: 2_100, attempts: 1 }, stopped)
      continue
    }
    const local = projection.meta.tokens.total
    const record = callRecord({
      ...base,
      stopReason: 'stop',
      usage: {
        inputTokens: Math.round(local * 1.12),
        outputTokens: 20,
        cachedInputTokens: turn === 0 ? 0 : 40,
        cacheWriteInputTokens: turn === 0 ? 50 : 0,
      },
      timing: { startedAt, firstTokenMs: 420, durationMs: turn === 1 ? 4_900 : 1_300, attempts: turn === 1 ? 3 : 1 },
    })
    const reply: EntryInput = {
      kind: 'message',
      payload: { role: 'assistant', content: `answer ${turn}` },
      refs: { callId, requestId: `r${turn}` },
      meta: { call: record },
    }
    stored.addFrom(await stores.threads.appendMany(threadId, [reply]))
    void question
  }
  for (const attempt of attempts) await stores.calls.recordAttempt(attempt)
  for (let call = 0; call < 8; call++)
    await stores.calls.addCalibrationSample('claude-sonnet-4-5', 'heuristic', { local: 1_000, reported: 1_110 + (call % 3) * 10, messages: 6 })
  return harness
}

/** The trace's rows as `callId:status`, top to bottom (newest first). */
const traceOrder = (panel: Harness) => panel.queryAll('.tl-trace-row').map((row) => `${row.dataset['callId']}:${row.dataset['status']}`)
/** What `seeded()` leaves, in the order sent: each retry just before the call it led to. */
const seededOrder = ['call-0:ok', 'call-1:retried', 'call-1:retried', 'call-1:ok', 'call-2:failed']

describe('Calls tab: every attempt on record', () => {
  it('lists answered, retried and failed attempts with latency and local vs reported tokens; replays an attempt; shows the calibration in use', async () => {
    await page.viewport(1440, 900)
    const panel = await seeded()
    await eventually(() => expect(panel.queryAll('[data-testid="attempt-row"]')).toHaveLength(3))
    expect(traceOrder(panel)).toEqual([...seededOrder].reverse())
    expect((await panel.find('calls-count')).textContent).toBe('2 calls · 5 attempts, 3 not answered')
    const answered = panel.query('[data-testid="call-row"][data-call-id="call-1"]') as HTMLElement
    expect(answered.textContent).toContain('420 ms / 4.9 s')
    // Rows say what the call wrote or why it failed, not its id (that is in the tooltip).
    expect(answered.querySelector('[data-testid="trace-label"]')?.textContent).toBe('try 3 · assistant: answer 1')
    expect(answered.title).toContain('call call-1')
    expect(panel.query('[data-testid="attempt-row"][data-call-id="call-2"] [data-testid="trace-label"]')?.textContent).toMatch(
      /^try 1 · HTTP 401: invalid x-api-key/,
    )
    expect(answered.textContent).toMatch(/→ [\d,]+ \+1[12]\.\d%/)
    // Cache read / written and cost, under a header that says so.
    expect(answered.querySelector('[data-testid="trace-cache"]')?.textContent).toBe('40 / 0')
    // The cost once the model prices have loaded (the tab asks for them as it opens).
    await eventually(() => expect(answered.querySelector('[data-testid="trace-cost"]')?.textContent).toMatch(/^\$0\.\d{4}$/))
    expect(panel.query('[data-testid="attempt-row"][data-call-id="call-2"] [data-testid="trace-cost"]')?.textContent).toBe('—')
    expect((await panel.find('calls-head')).textContent).toContain('cache read / written')
    expect((await panel.find('calls-head')).textContent).toContain('cost')
    // The newest row is selected: the failed call, with its error and a verified replay from its record.
    const detail = await panel.find('attempt-detail')
    expect(detail.dataset['attemptId']).toBe('call-2#1')
    expect((await panel.find('attempt-error')).textContent).toBe('ProviderAuthError (HTTP 401): invalid x-api-key')
    await eventually(() => expect(panel.query('[data-testid="attempt-detail"] [data-testid="replay-verified"]')?.dataset['verified']).toBe('true'))
    const calibration = await panel.find('calibration')
    expect(calibration.dataset['source']).toBe('calibrated')
    expect(calibration.textContent).toMatch(
      /counts 1[12]\.\d% more tokens than the local counter \(over 10 calls\); budgets leave 1[1-5]\.\d% room for it\./,
    )
    // The figures behind it are expert detail, in the tooltip.
    expect(calibration.title).toMatch(/^provider ÷ local: ×1\.1[12]\d ± 0\.00\d over 10 calls · plans at ×1\.1\d\d$/)
    // (10 calls: 8 samples given, and the 2 answered replies' own, added by the store as they were written.)

    ;(panel.query('[data-testid="call-row"][data-call-id="call-1"]') as HTMLElement).click()
    const call = await panel.find('call-detail')
    await eventually(() => expect(panel.query('[data-testid="call-timing"]')?.textContent).toContain('3 attempts'))
    expect(call.dataset['callId']).toBe('call-1')
    await page.screenshot({ path: '../../../test-results/devtools-calls-1440.png', element: panel.root.host as HTMLElement })
    panel.unmount()
  })

  it('shows what the user needs of an aborted, a failed and a retried attempt, and what each sent against the request before it', async () => {
    await page.viewport(1440, 900)
    const panel = await seeded({ aborted: true })
    await eventually(() => expect(panel.queryAll('.tl-trace-row')).toHaveLength(6))
    expect(traceOrder(panel)).toEqual(['call-3:aborted', ...[...seededOrder].reverse()])
    expect((await panel.find('calls-count')).textContent).toBe('2 calls · 6 attempts, 4 not answered')
    // Each row as the user reads it: clock, status, what it was for and why it failed, latency, local → reported tokens.
    const cells = (selector: string) => {
      const row = panel.query(selector) as HTMLElement
      return [...[...row.children].slice(0, 3), ...(row.querySelector('.tl-trace-figures') as HTMLElement).children].map((cell) => cell.textContent)
    }
    const [clock, status, label, latency, tokens, cached] = cells('[data-testid="attempt-row"][data-call-id="call-3"]')
    expect([clock, status, latency, cached]).toEqual(['08:03:00', 'aborted', '380 ms / 2.1 s', '—'])
    expect(label).toMatch(/^try 1 · AbortError: The request was aborted\. · for “question 3 about the harbour/)
    expect(tokens).toMatch(/^[\d,]+ → —$/)
    const [, retriedStatus, retriedLabel, retriedLatency, retriedTokens] = cells(
      '[data-testid="attempt-row"][data-call-id="call-1"][data-attempt="1"]',
    )
    expect([retriedStatus, retriedLatency]).toEqual(['retried', '— / 300 ms'])
    expect(retriedLabel).toMatch(/^try 1 · HTTP 429: rate limited: retry after 2 s · for “question 1/)
    expect(retriedTokens).toMatch(/^[\d,]+ → —$/)
    const [, failedStatus, failedLabel, failedLatency] = cells('[data-testid="attempt-row"][data-call-id="call-2"]')
    expect([failedStatus, failedLatency]).toEqual(['failed', '— / 120 ms'])
    expect(failedLabel).toMatch(/^try 1 · HTTP 401: invalid x-api-key · for “question 2/)

    // The newest row, the aborted call, is open: its status, error, timing, counts and its diff from the failed call before it.
    const detail = await panel.find('attempt-detail')
    expect(detail.dataset['attemptId']).toBe('call-3#1')
    expect((await panel.find('attempt-status')).textContent).toBe('aborted')
    expect(detail.textContent).toContain('stopped before it answered')
    expect((await panel.find('attempt-error')).textContent).toBe('AbortError: The request was aborted.')
    expect((await panel.find('attempt-timing')).textContent).toMatch(
      /^sent 08:03:00 UTC · first token 380 ms · took 2\.1 s · model claude-sonnet-4-5 · [\d,]+ prompt tokens counted · the provider reported no usage$/,
    )
    const diff = await panel.find('call-diff')
    expect(diff.textContent).toContain('vs the attempt before (failed, sent 08:02:00 UTC)')
    const changed = (change: string) =>
      [...diff.querySelectorAll(`[data-change="${change}"]`)].map((item) => Number((item as HTMLElement).dataset['seq']))
    expect([changed('entering'), changed('leaving'), changed('changed')]).toEqual([[5], [], []])
    expect(diff.querySelector('[data-change="entering"]')?.textContent).toContain('user: question 3')
    expect(diff.querySelector('[data-testid="prefix-stable"]')?.getAttribute('data-stable')).toBe('true')
    // Cache reads are predicted after the newest answered call; an attempt that never answered has no usage, and says so.
    expect(diff.querySelector('[data-testid="cache-figures"]')?.textContent).toMatch(
      /simulator predicts [\d,]+ · no usage: the attempt was stopped before the provider reported any$/,
    )

    // A retry is compared with the try before it (nothing changed), its first try with the call before.
    const select = async (selector: string) => {
      ;(panel.query(selector) as HTMLElement).click()
      await eventually(() => expect(panel.query('[data-testid="call-diff"]')).not.toBeNull())
    }
    const rows = () => panel.queryAll('.tl-trace-row')
    await select('[data-testid="attempt-row"][data-call-id="call-1"][data-attempt="1"]')
    await eventually(() => expect(panel.query('[data-testid="attempt-detail"]')?.dataset['attemptId']).toBe('call-1#1'))
    await eventually(() =>
      expect(panel.query('[data-testid="call-diff"]')?.textContent).toContain('vs the call before (answered, sent 08:00:00 UTC)'),
    )
    const current = () => panel.query('[data-testid="call-diff"]') as HTMLElement
    expect([...current().querySelectorAll('[data-change="entering"]')].map((item) => Number((item as HTMLElement).dataset['seq']))).toEqual([1, 2])
    // Newest first: the aborted call, the failed one, call-1 answered, its try 2, its try 1, call-0.
    ;(rows()[3] as HTMLElement).click()
    await eventually(() => expect(panel.query('[data-testid="attempt-detail"]')?.dataset['attemptId']).toBe('call-1#2'))
    await eventually(() => expect(current().textContent).toContain('vs try 1 of this call (retried, sent 08:01:00 UTC)'))
    expect([current().dataset['entered'], current().dataset['left'], current().dataset['changed']]).toEqual(['0', '0', '0'])
    expect((await panel.find('attempt-error')).textContent).toBe('ProviderServerError (HTTP 529): overloaded')
    ;(rows()[2] as HTMLElement).click()
    await eventually(() => expect(panel.query('[data-testid="call-detail"]')?.dataset['callId']).toBe('call-1'))
    await eventually(() => expect(current().textContent).toContain('vs try 2 of this call (retried, sent 08:01:02 UTC)'))
    ;(rows()[1] as HTMLElement).click()
    await eventually(() => expect(panel.query('[data-testid="attempt-detail"]')?.dataset['attemptId']).toBe('call-2#1'))
    await eventually(() => expect(current().textContent).toContain('vs the call before (answered, sent 08:01:00 UTC)'))
    expect(current().querySelector('[data-testid="cache-figures"]')?.textContent).toMatch(
      /no usage: the attempt failed before the provider reported any$/,
    )
    await page.screenshot({ path: '../../../test-results/devtools-calls-attempts-1440.png', element: panel.root.host as HTMLElement })
    panel.unmount()
  })

  it('stays readable in a 390 px wide panel', async () => {
    await page.viewport(390, 844)
    const panel = await seeded()
    const host = panel.root.host as HTMLElement
    host.parentElement?.style.setProperty('width', '390px')
    await eventually(() => expect(panel.queryAll('.tl-trace-row')).toHaveLength(5))
    const row = panel.query('[data-testid="call-row"][data-call-id="call-1"]') as HTMLElement
    // Stacked: status and what it answered, then every figure, labelled (the clock is in the detail).
    expect(row.scrollWidth).toBeLessThanOrEqual(row.clientWidth + 1)
    expect(getComputedStyle(row.children[0] as Element).display).toBe('none')
    for (const figure of ['trace-latency', 'trace-tokens', 'trace-cache', 'trace-cost']) {
      const cell = row.querySelector(`[data-testid="${figure}"]`) as HTMLElement
      expect(cell.getBoundingClientRect().width, figure).toBeGreaterThan(0)
      expect(cell.getBoundingClientRect().right, figure).toBeLessThanOrEqual(row.getBoundingClientRect().right + 1)
    }
    expect(row.querySelector('[data-testid="trace-latency"]')?.textContent).toBe('420 ms / 4.9 s')
    expect(getComputedStyle(row.querySelector('[data-testid="trace-latency"]') as Element, '::before').content).toBe('"time "')
    expect(row.querySelector('[data-testid="trace-cache"]')?.textContent).toBe('40 / 0')
    expect(row.getBoundingClientRect().height).toBeGreaterThan(30)
    await page.screenshot({ path: '../../../test-results/devtools-calls-390.png', element: host })
    panel.unmount()
  })

  it('shows latency, tokens, cache and cost in view at every panel width, stacked when the columns do not fit', async () => {
    await page.viewport(1440, 900)
    const panel = await seeded()
    const host = panel.root.host as HTMLElement
    await eventually(() => expect(panel.queryAll('.tl-trace-row')).toHaveLength(5))
    for (const width of [360, 480, 600, 640, 700, 800, 1000, 1400]) {
      host.parentElement?.style.setProperty('width', `${width}px`)
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      for (const row of panel.queryAll('.tl-trace-row')) {
        expect(row.scrollWidth, `row at ${width} px`).toBeLessThanOrEqual(row.clientWidth + 1)
        for (const figure of ['trace-latency', 'trace-tokens', 'trace-cache', 'trace-cost']) {
          const box = (row.querySelector(`[data-testid="${figure}"]`) as HTMLElement).getBoundingClientRect()
          expect(box.width, `${figure} at ${width} px`).toBeGreaterThan(0)
          expect(box.right, `${figure} at ${width} px`).toBeLessThanOrEqual(row.getBoundingClientRect().right + 1)
        }
      }
    }
    panel.unmount()
  })
})
