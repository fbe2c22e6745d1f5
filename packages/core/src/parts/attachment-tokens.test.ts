import { describe, expect, it } from 'vitest'
import { createThread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { project } from '../project/project'
import { anthropicImageTokens, attachmentTokens, fileTokens, imageTokens, openAIImageTokens } from './attachment-tokens'
import { customTokenCounter, heuristicCount, messageTokens } from '../tokens/token-counter'

describe('image and file tokens, by each provider’s documented rules', () => {
  it('counts OpenAI images by 512-px tiles after scaling, as OpenAI’s worked examples', () => {
    expect(openAIImageTokens(1024, 1024, 'high')).toBe(765)
    expect(openAIImageTokens(2048, 4096, 'high')).toBe(1105)
    expect(openAIImageTokens(4096, 8192, 'low')).toBe(85)
    expect(openAIImageTokens(500, 500)).toBe(255)
    // Unknown size: the largest image the rule can bill (768×2048 after scaling: 8 tiles).
    expect(openAIImageTokens(undefined, undefined)).toBe(1445)
    expect(openAIImageTokens(768, 2048)).toBe(1445)
  })

  it('counts Anthropic images as width×height/750 after the 1568-px long-edge cap, at most about 1,600', () => {
    expect(anthropicImageTokens(200, 200)).toBe(54)
    expect(anthropicImageTokens(1000, 1000)).toBe(1334)
    expect(anthropicImageTokens(1092, 1092)).toBe(1590)
    expect(anthropicImageTokens(4000, 3000)).toBe(1600)
    expect(anthropicImageTokens(undefined, 10)).toBe(1600)
  })

  it('takes the larger of both rules by default, so a budget holds for either provider', () => {
    const image = { type: 'image' as const, source: { type: 'url' as const, url: 'https://x/a.png' }, width: 1000, height: 1000 }
    expect(imageTokens(image)).toBe(1334)
    expect(imageTokens(image, 'openai')).toBe(765)
    expect(imageTokens({ ...image, detail: 'low' }, 'openai')).toBe(85)
  })

  it('counts PDFs per page (estimated from the size when unknown) and text files by their bytes', () => {
    const pdf = (pages?: number) => ({
      type: 'file' as const,
      source: { type: 'url' as const, url: 'data:application/pdf;base64,' + 'A'.repeat(200_000) },
      ...(pages === undefined ? {} : { pages }),
    })
    expect(fileTokens(pdf(2))).toBe(2 * 4600)
    // 150,000 bytes: three pages of 50 KB.
    expect(fileTokens(pdf())).toBe(3 * 4600)
    expect(fileTokens({ type: 'file', source: { type: 'url', url: 'data:text/plain;base64,aGVsbG8gd29ybGQ=' } })).toBe(4)
    expect(fileTokens({ type: 'file', source: { type: 'provider-file', fileId: 'file-1' } })).toBe(4600)
  })

  it('adds them to a message’s tokens, and the projection shows them as their own share', () => {
    const count = customTokenCounter('heuristic', heuristicCount, false)
    const parts = [
      { type: 'text' as const, text: 'What is in this picture?' },
      { type: 'image' as const, source: { type: 'url' as const, url: 'https://x/a.png' }, width: 1000, height: 1000 },
    ]
    const payload = { role: 'user' as const, content: 'What is in this picture?', parts }
    expect(messageTokens(payload, (text) => count.count(text))).toBe(
      messageTokens({ content: payload.content }, (text) => count.count(text)) + 2 + 1334,
    )
    const thread = createThread()
    thread.append({ kind: 'message', payload })
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 10_000, reserveOutputTokens: 100 }), counter: count })
    expect(result.meta.tokens.attachments).toBe(attachmentTokens(parts))
    expect(result.meta.messages[0]?.attachmentTokens).toBe(1334)
    expect(result.meta.tokens.history).toBe(count.countEntry(thread.entries[0] as never))
  })

  it('leaves older images out under keepImagesTurns, keeping the text and saying which', () => {
    const count = customTokenCounter('heuristic', heuristicCount, false)
    const thread = createThread()
    const image = { type: 'image' as const, source: { type: 'url' as const, url: 'https://x/a.png' } }
    thread.append({ kind: 'message', payload: { role: 'user', content: 'old', parts: [{ type: 'text', text: 'old' }, image] } })
    thread.append({ kind: 'message', payload: { role: 'assistant', content: 'A cat.' } })
    thread.append({ kind: 'message', payload: { role: 'user', content: 'new', parts: [{ type: 'text', text: 'new' }, image] } })
    const result = project({ thread, policy: definePolicy({ maxInputTokens: 10_000, reserveOutputTokens: 100, keepImagesTurns: 1 }), counter: count })
    expect(result.messages[0]).toEqual({ role: 'user', content: 'old', parts: [{ type: 'text', text: 'old' }] })
    expect(result.meta.messages[0]?.omittedImages).toEqual([1])
    expect(result.messages[2]).toMatchObject({ parts: [{ type: 'text', text: 'new' }, image] })
    expect(result.meta.tokens.attachments).toBe(1600)
  })
})
