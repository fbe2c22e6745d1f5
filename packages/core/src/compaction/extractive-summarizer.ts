import type { Summarizer } from './summarizer'

/**
 * A deterministic, offline summarizer: extracts the user's goals, the assistant's decisions and
 * answers, each tool call with the first line of its result, and the names mentioned. A dialogue
 * between people (`Name: text` messages, session markers) gets a summary of facts instead: its
 * salient sentences, attributed and grouped by session and date, small talk dropped (see
 * `summarizeDialogue`). No model, no network: for tests, demos and as a fallback.
 */
export function extractiveSummarizer(): Summarizer {
  return {
    name: 'extractive',
    async summarize(input) {
      if (input.signal?.aborted === true) throw input.signal.reason ?? new Error('aborted')
      // The summarizing code loads on first use: an app that makes the summarizer up front and never
      // summarizes does not download it.
      const { summarizeExtractive } = await import('./extractive-summary')
      return summarizeExtractive(input)
    },
  }
}
