import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { createThread, type Thread } from '../entries/thread'
import { definePolicy } from '../policy/policy'
import { presets } from '../policy/presets'
import { createRecallIndex } from '../recall/recall-index'
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter'
import { entryFates } from '../views/fates'
import { project } from './project'

// Recall on a real long conversation (LoCoMo 26, the bench's fixture): every question asked of the
// whole chat at three budgets and two policies stays within budget, sends whole entries once, and
// accounts for every entry. Random threads are short; this is where the room recall and the window
// trade back and forth is largest.

interface Turn {
  readonly speaker: string
  readonly text: string
  readonly blip_caption?: string
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** `1:56 pm on 8 May, 2023` as UTC milliseconds. */
function sessionTime(text: string): number {
  const match = /(\d+):(\d+) (am|pm) on (\d+) (\w+), (\d+)/.exec(text)
  if (match === null) throw new Error(`not a session date: ${text}`)
  const hours = (Number(match[1]) % 12) + (match[3] === 'pm' ? 12 : 0)
  return Date.UTC(Number(match[6]), months.indexOf(match[5] as string), Number(match[4]), hours, Number(match[2]))
}

const conversation = JSON.parse(readFileSync(new URL('../../bench/fixtures/locomo/26.json', import.meta.url), 'utf8')) as Record<string, unknown> & {
  readonly speaker_a: string
  readonly qa: readonly { readonly question: string; readonly category: number }[]
}

function locomoThread(): Thread {
  let time = 0
  const thread = createThread({ id: 'locomo-26', now: () => time })
  for (let session = 1; Array.isArray(conversation[`session_${session}`]); session++) {
    const date = String(conversation[`session_${session}_date_time`])
    time = sessionTime(date)
    thread.append({ kind: 'message', payload: { role: 'system', content: `Session ${session} · ${date}` } })
    for (const turn of conversation[`session_${session}`] as readonly Turn[]) {
      time += 1000
      const caption = turn.blip_caption === undefined ? '' : ` [shares ${turn.blip_caption}]`
      thread.append({
        kind: 'message',
        payload: { role: turn.speaker === conversation.speaker_a ? 'user' : 'assistant', content: `${turn.speaker}: ${turn.text}${caption}` },
      })
    }
  }
  return thread
}

let counter: TokenCounter
beforeAll(async () => {
  counter = await createTokenCounter('o200k_base')
})

describe('recall on a real long conversation', () => {
  it('stays within budget and accounts for every entry, for every question at 4k, 8k and 16k', () => {
    const thread = locomoThread()
    const index = createRecallIndex()
    const questions = conversation.qa.filter((item) => item.category !== 5).map((item) => item.question)
    let recalled = 0
    for (const maxInputTokens of [4096, 8192, 16_384]) {
      for (const policy of [
        definePolicy({ maxInputTokens, reserveOutputTokens: 0, recall: {} }),
        presets.shortContext({ maxInputTokens, reserveOutputTokens: 0 }),
      ]) {
        for (const question of questions) {
          const result = project({ thread, policy, counter, pending: [{ role: 'user', content: question }], recall: index })
          const { meta } = result
          expect(meta.tokens.total).toBeLessThanOrEqual(maxInputTokens)
          const sent = meta.messages.flatMap((info) => info.seqs)
          expect(new Set(sent).size).toBe(sent.length)
          const fates = entryFates(meta)
          const recalledSeqs = new Set(meta.recall?.seqs ?? [])
          for (const entry of thread.entries)
            expect(fates.fateOf(entry.seq).state).toBe(
              recalledSeqs.has(entry.seq) ? 'recalled' : meta.includedSeqs.includes(entry.seq) ? 'included' : 'dropped',
            )
          recalled += recalledSeqs.size
        }
      }
    }
    expect(recalled).toBeGreaterThan(0)
  })
})
