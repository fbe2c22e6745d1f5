import { customTokenCounter, definePolicy, type Entry, project, type Summarizer } from '@threadlens/core'
import { type SummarizeInput } from '@threadlens/core/compaction'
import { toolArgumentsText, toolResultText } from '@threadlens/core/internal'
import { collectModelReply } from './collect-reply'
import type { ModelClient } from './model-client'

/** The default instructions of `modelSummarizer`. */
export const DEFAULT_SUMMARIZER_INSTRUCTIONS =
  'You write the running summary of a conversation: between a user and an assistant that uses tools, or between people. ' +
  'The conversation will continue from your summary alone, and any fact in it may be asked about later, however old. ' +
  'Keep, as short factual lines: who did, said or plans what, where and when, attributed to the person by name; ' +
  'dates: give each fact the date of the session or message it was said in, and resolve relative dates ("yesterday", ' +
  '"last Saturday", "next month") against that date; the user\'s goals and constraints; decisions made; facts learned from ' +
  'tools; open questions, open tasks and next steps. Copy names, numbers, amounts, dates, identifiers, paths and quoted ' +
  'titles verbatim. Group facts by session or date. Keep every fact of the previous summary unless it was corrected or ' +
  'is no longer true. Drop greetings, thanks, small talk and repetition. Write plain text with no preamble.'

export interface ModelSummarizerOptions {
  /** The client that writes the summary; a small, cheap model does well. Required. */
  readonly model: ModelClient
  /** The system prompt. Default: `DEFAULT_SUMMARIZER_INSTRUCTIONS`. */
  readonly instructions?: string
  /** Shown in devtools and failure markers. Default: `model:<model id>`. */
  readonly name?: string
}

/**
 * A core `Summarizer` that asks a model: it sends the previous summary and the entries after it
 * as one user message, capped at `maxTokens` of output. A reply the cap cut short, or an aborted
 * call, throws, so compaction records a failure and the history stays as it was.
 */
export function modelSummarizer(options: ModelSummarizerOptions): Summarizer {
  const instructions = options.instructions ?? DEFAULT_SUMMARIZER_INSTRUCTIONS
  return {
    name: options.name ?? `model:${options.model.id}`,
    async summarize(input: SummarizeInput): Promise<string> {
      const counter = customTokenCounter('summarizer', input.countTokens, false)
      const request = summaryRequest(input)
      const projection = project({
        thread: [],
        // Sized to fit whatever it is given: the caller chose the entries, and the provider enforces the real window.
        policy: definePolicy({ maxInputTokens: 100_000_000, reserveOutputTokens: input.maxTokens, systemPrompt: instructions }),
        counter,
        pending: [{ role: 'user', content: request }],
      })
      const reply = await collectModelReply(
        options.model.stream({
          projection,
          tools: [],
          maxOutputTokens: input.maxTokens,
          ...(input.signal === undefined ? {} : { signal: input.signal }),
        }),
      )
      if (reply.stopReason === 'abort') throw input.signal?.reason ?? new Error('The summary call was aborted.')
      if (reply.stopReason === 'length') {
        throw new Error(
          `The summary was cut off at ${input.maxTokens} tokens; use a model that follows length instructions, or allow a longer summary.`,
        )
      }
      return reply.text.trim()
    },
  }
}

function summaryRequest(input: SummarizeInput): string {
  const parts = [`Write the updated summary in at most ${input.maxTokens} tokens.`]
  if (input.previousSummary !== undefined && input.previousSummary !== '')
    parts.push(`<previous-summary>\n${input.previousSummary}\n</previous-summary>`)
  parts.push(
    `<conversation>\n${input.entries
      .map(entryLine)
      .filter((line) => line !== '')
      .join('\n')}\n</conversation>`,
  )
  return parts.join('\n\n')
}

function entryLine(entry: Entry): string {
  switch (entry.kind) {
    case 'message':
      return `${entry.payload.role}: ${entry.payload.content}`
    case 'tool_call':
      return `assistant called ${entry.payload.name}(${toolArgumentsText(entry.payload)})`
    case 'tool_result':
      return `${entry.payload.name} ${entry.payload.error === undefined ? 'returned' : 'failed'}: ${toolResultText(entry.payload)}`
    case 'summary':
      return `summary: ${entry.payload.content}`
    case 'context_op':
      return ''
  }
}
