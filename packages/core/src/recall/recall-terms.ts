// The terms recall matches on, for entries and queries alike: words folded to lower case, common
// function words left out (they match everything and say nothing), a light English suffix fold so
// "painting" finds "paint" and "kids" finds "kid", and scripts written without spaces (Chinese,
// Japanese, Thai…) split into overlapping pairs of characters, as search engines do for CJK.

const stopWords = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each ' +
    'few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on ' +
    'once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    "i'm i've i'll i'd you're you've you'll that's it's what's let's don't didn't doesn't isn't wasn't aren't can't won't " +
    'also yeah yes ok okay oh wow hey hi hello thanks thank really just got get like know think going gonna im ive thats dont'
  ).split(' '),
)

/** Letters and digits of any script, with inner apostrophes (don't) and dots or commas between digits (3.5, 1,200). */
const wordPattern = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+|[.,]\p{N}+)*/gu
/** Scripts written without spaces between words. */
const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
const unspacedRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu
const asciiWord = /^[a-z]+$/

/** A conservative suffix fold for English words (not a full stemmer: recall, not linguistics). */
export function foldSuffix(word: string): string {
  if (word.length <= 3 || !asciiWord.test(word)) return word
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3))
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2))
  if (word.endsWith('es') && /(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1)
  return word
}

function undouble(stem: string): string {
  const last = stem[stem.length - 1]
  return stem.length > 3 && last === stem[stem.length - 2] && last !== 'l' && last !== 's' ? stem.slice(0, -1) : stem
}

/**
 * The terms of a text, in order of appearance, duplicates kept (term frequency matters). At most
 * `limit` terms (a 10 MB entry is indexed by its first ones), so the work is bounded by construction.
 */
export function recallTerms(text: string, limit = 20_000): string[] {
  const terms: string[] = []
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(wordPattern)) {
    if (terms.length >= limit) break
    const word = match[0].replaceAll('’', "'")
    if (unspacedScript.test(word)) {
      pushUnspaced(word, terms, limit)
      continue
    }
    if (stopWords.has(word)) continue
    const bare = word.endsWith("'s") ? word.slice(0, -2) : word
    if (bare.length === 1 && !/\p{N}/u.test(bare)) continue
    terms.push(foldSuffix(bare))
  }
  return terms
}

/** A run mixing an unspaced script with other letters: the other letters as words, the unspaced runs as character pairs. */
function pushUnspaced(word: string, terms: string[], limit: number): void {
  let last = 0
  for (const run of word.matchAll(unspacedRun)) {
    const before = word.slice(last, run.index)
    if (before !== '' && !stopWords.has(before)) terms.push(foldSuffix(before))
    const characters = [...run[0]]
    if (characters.length === 1) terms.push(run[0])
    for (let position = 0; position + 1 < characters.length && terms.length < limit; position++) {
      terms.push(`${characters[position]}${characters[position + 1]}`)
    }
    last = run.index + run[0].length
  }
  const after = word.slice(last)
  if (after !== '' && !stopWords.has(after)) terms.push(foldSuffix(after))
}
