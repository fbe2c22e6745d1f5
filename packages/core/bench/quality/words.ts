// Word-level text handling shared by the BM25 baselines and the answer/evidence checks, so every
// strategy is judged by the same words.

/** A common English stop-word list (articles, pronouns, auxiliaries, prepositions, conjunctions). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves s t d ll m re ve don didn doesn isn wasn'
  ).split(' '),
)

/** Lowercased word tokens, punctuation stripped (letters and digits only). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter((word) => word !== '')
}

/** Words without stop words: what a question, an answer or a turn is about. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !STOP_WORDS.has(word))
}
