import type { EntryInput } from '@threadlens/core'
import { createSessionSource } from '@threadlens/client'
import { describe, expect, it } from 'vitest'
import { conversation, eventually, renderPanel, testPolicy } from '../../testing/panel-harness'

const hostile = [
  '<img src=x onerror="window.__tlXss=1">',
  '<script>window.__tlXss=2</script>',
  '<a href="javascript:window.__tlXss=3">click</a>',
].join(' ')

function hostileThread(): EntryInput[] {
  return [
    { kind: 'message', payload: { role: 'user', content: `Summarize this email: ${hostile}` }, refs: { requestId: 'r1' } },
    {
      kind: 'tool_call',
      payload: { name: 'fetch_page', arguments: { url: 'javascript:alert(1)' } },
      refs: { requestId: 'r1', callId: 'c1', toolCallId: 't1' },
    },
    { kind: 'tool_result', payload: { name: 'fetch_page', result: { html: hostile } }, refs: { requestId: 'r1', toolCallId: 't1' } },
    { kind: 'summary', payload: { fromSeq: 0, toSeq: 0, content: 'asked about an email' } },
    { kind: 'message', payload: { role: 'assistant', content: `It contains markup: ${hostile}` }, refs: { requestId: 'r1', callId: 'c2' } },
    { kind: 'message', payload: { role: 'user', content: 'x'.repeat(2000) }, refs: { requestId: 'r2' } },
  ]
}

/** The newest 4 history messages: the first question falls out of the window, so the summary stands in for it. */
const summaryWindow = { maxMessages: 4 } as const

function noActiveMarkup(root: ShadowRoot): void {
  expect(root.querySelectorAll('img, script, iframe, object, embed').length).toBe(0)
  expect(root.querySelectorAll('a[href]').length).toBe(0)
  expect((window as { __tlXss?: unknown }).__tlXss).toBeUndefined()
}

describe('Projection tab', () => {
  it('shows where each prompt-cache breakpoint sits and why, and marks those messages', async () => {
    const panel = await renderPanel({
      entries: hostileThread(),
      policy: testPolicy({ systemPrompt: 'Be brief.', cache: { ttl: '1h' }, ...summaryWindow }),
    })
    const card = await panel.find('cache-breakpoints')
    expect(card.dataset['mode']).toBe('explicit')
    const reasons = panel.queryAll('[data-testid="cache-breakpoint"]').map((row) => row.dataset['reason'])
    expect(reasons).toEqual(['tools-and-system', 'stable-base', 'request-end'])
    expect(card.textContent).toContain('end of tools + system prompt')
    expect(card.textContent).toContain('1h')
    expect(panel.queryAll('[data-testid="message-breakpoint"]').length).toBe(3)
    // OpenAI (GPT-5.6+) gets the system and stable-base markers; its implicit breakpoint covers the end.
    const openAI = await panel.find('openai-breakpoints')
    expect(openAI.dataset['count']).toBe('2')
    expect(openAI.textContent).toContain('(tools-and-system)')
    expect(openAI.textContent).toContain('(stable-base)')
    noActiveMarkup(panel.root)
    panel.unmount()
  })

  it('shows the exact messages by segment with tokens, and hostile content only as text', async () => {
    const panel = await renderPanel({ entries: hostileThread(), policy: testPolicy({ systemPrompt: 'Be brief.', ...summaryWindow }) })
    const messages = await panel.find('projected-messages')
    const segmentNames = panel.queryAll('section[data-testid^="segment-"]').map((section) => section.dataset['testid'])
    expect(segmentNames).toEqual(['segment-system', 'segment-summary', 'segment-history'])
    expect(messages.dataset['count']).toBe(String(panel.queryAll('[data-testid="projected-message"]').length))
    expect(messages.textContent).toContain(hostile)
    expect(messages.textContent).toContain('→ fetch_page (t1)')
    // Per-message token counts add up to the meter's total less the reply priming (3).
    const tokens = panel.queryAll('[data-testid="projected-message"] .tl-tokens').map((cell) => Number(cell.textContent?.replace(/[^0-9]/g, '')))
    const compact = await panel.find('meter-compact')
    expect(tokens.reduce((a, b) => a + b, 0) + 3).toBe(Number(compact.dataset['total']))
    // Long content is collapsed behind "show more".
    const more = panel.queryAll('.tl-more').find((button) => button.textContent?.startsWith('show more'))
    expect(more?.textContent).toContain('1400 more characters')
    more?.click()
    await eventually(() => expect(messages.textContent).toContain('x'.repeat(2000)))
    noActiveMarkup(panel.root)
    panel.unmount()
  })

  it('toggles to the OpenAI and Anthropic request JSON, still as text', async () => {
    const panel = await renderPanel({ entries: hostileThread() })
    await panel.find('projected-messages')
    await panel.click('format-openai')
    const openai = await panel.find('request-json')
    expect(openai.dataset['provider']).toBe('openai')
    expect(openai.textContent).toContain('"tool_calls"')
    expect(openai.textContent).toContain('"tool_call_id": "t1"')
    expect(panel.queryAll('[data-testid="provider-message"]').length).toBeGreaterThan(2)
    await panel.click('format-anthropic')
    await eventually(() => expect(panel.query('[data-testid="request-json"]')?.dataset['provider']).toBe('anthropic'))
    expect(panel.query('[data-testid="request-json"]')?.textContent).toContain('"tool_use"')
    noActiveMarkup(panel.root)
    panel.unmount()
  })

  it('in session mode shows the status and the pending message as the pending segment', async () => {
    const session = createSessionSource({ status: 'idle', threadId: 'unused' })
    const panel = await renderPanel({ entries: conversation(2), session })
    await panel.find('projected-messages')
    expect((await panel.find('session-status')).textContent).toBe('session: idle')
    session.update({ status: 'awaiting-model', pendingMessage: 'What about museums?' })
    await eventually(() => expect(panel.query('[data-testid="segment-pending"]')?.textContent).toContain('What about museums?'))
    expect(panel.query('[data-testid="session-status"]')?.textContent).toBe('session: awaiting-model')
    // The request in progress: running tools and the streaming reply.
    session.update({
      status: 'awaiting-tools',
      requestId: 'r9',
      runningTools: [{ toolCallId: 't9', name: 'weather' }],
      streamingText: 'Let me check',
    })
    await eventually(() => expect(panel.query('[data-testid="session-tools"]')?.textContent).toContain('weather (t9)'))
    expect(panel.query('[data-testid="session-streaming"]')?.textContent).toContain('Let me check')
    expect(panel.query('[data-testid="session-bar"]')?.textContent).toContain('request r9')
    panel.unmount()
  })
})
