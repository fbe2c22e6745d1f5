// The app's embedder as the hybrid recall index calls it: one call bounded by a timeout, and what it
// returns checked (one vector per text, all of one length, finite numbers) before anything is kept.

/** A vector as an embedder returns it. */
export type EmbeddingVector = readonly number[] | Float32Array

/**
 * Turns texts into vectors: one per text, in the same order, all of the same length. Supplied by
 * the app (a provider's embeddings API, a model in a worker); core only calls it. It should stop
 * when `signal` aborts (the index has then given up on the call).
 */
export type Embedder = (texts: readonly string[], options: { readonly signal: AbortSignal }) => Promise<readonly EmbeddingVector[]>

/** Why an embedder call was not used. */
export type EmbedFailureReason =
  /** the embedder threw or rejected, or a vector held a number that is not finite (NaN, Infinity) */
  | 'embed-failed'
  /** it returned a different number of vectors than texts (or no array at all) */
  | 'wrong-count'
  /** a vector's length differs from `dimensions`, from the vectors kept already, or from the others of the call */
  | 'wrong-dimension'
  /** it did not answer within `timeoutMs` (its signal was aborted) */
  | 'timeout'

/** A failed embedder call: why, and the error thrown or an `Error` describing the check that failed. */
export interface EmbedFailure {
  readonly reason: EmbedFailureReason
  readonly error: unknown
}

/** What one call gave: checked, normalised vectors (unit length, or all zeros), or why none. */
export type EmbedOutcome = { readonly ok: true; readonly vectors: readonly Float32Array[] } | ({ readonly ok: false } & EmbedFailure)

const failed = (reason: EmbedFailureReason, error: unknown): EmbedOutcome => ({ ok: false, reason, error })

/**
 * Calls `embed` once for `texts`, giving up after `timeoutMs` (its signal is then aborted and a
 * late answer ignored). `dimensions()` is read once the answer is in: the length every vector must
 * have, `undefined` while none is known (then the first vector of the answer sets it).
 */
export async function embedChecked(
  embed: Embedder,
  texts: readonly string[],
  timeoutMs: number,
  dimensions: () => number | undefined,
): Promise<EmbedOutcome> {
  const controller = new AbortController()
  let timer: unknown
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`the embedder did not answer within ${timeoutMs} ms`)
      error.name = 'TimeoutError'
      controller.abort(error)
      reject(error)
    }, timeoutMs)
  })
  let answer: unknown
  try {
    // An embedder that throws instead of rejecting fails the same way.
    answer = await Promise.race([(async () => embed(texts, { signal: controller.signal }))(), timedOut])
  } catch (error) {
    return controller.signal.aborted ? failed('timeout', controller.signal.reason ?? error) : failed('embed-failed', error)
  } finally {
    clearTimeout(timer)
  }
  return checkVectors(answer, texts.length, dimensions())
}

function isVector(value: unknown): value is ArrayLike<number> {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))
}

/** One vector per text, all `dimensions` long (or as long as the first), finite; copied and normalised. */
export function checkVectors(answer: unknown, count: number, dimensions: number | undefined): EmbedOutcome {
  if (!Array.isArray(answer) || answer.length !== count) {
    const got = Array.isArray(answer) ? `${answer.length} vectors` : 'no array'
    return failed('wrong-count', new Error(`the embedder returned ${got} for ${count} texts`))
  }
  const first: unknown = answer[0]
  const width = dimensions ?? (isVector(first) ? first.length : 0)
  const vectors: Float32Array[] = []
  for (let position = 0; position < answer.length; position++) {
    const vector: unknown = answer[position]
    if (!isVector(vector) || vector.length !== width || width === 0) {
      const got = isVector(vector) ? `${vector.length} numbers` : 'not a vector'
      return failed('wrong-dimension', new Error(`vector ${position} has ${got}; ${width === 0 ? 'at least 1' : width} expected`))
    }
    const copy = toFloat32(vector)
    if (copy === undefined || !copy.every(Number.isFinite))
      return failed('embed-failed', new Error(`vector ${position} holds a value that is not a finite number`))
    vectors.push(normalised(copy))
  }
  return { ok: true, vectors }
}

/** A copy the caller cannot change afterwards; `undefined` for values that are not numbers at all (BigInts). */
function toFloat32(vector: ArrayLike<number>): Float32Array | undefined {
  try {
    return Float32Array.from(vector)
  } catch {
    return undefined
  }
}

/** The vector scaled to unit length in place (a zero vector stays zero: similar to nothing). */
export function normalised(vector: Float32Array): Float32Array {
  let sum = 0
  for (const value of vector) sum += value * value
  const norm = Math.sqrt(sum)
  if (norm > 0 && Number.isFinite(norm))
    for (let position = 0; position < vector.length; position++) vector[position] = (vector[position] as number) / norm
  return vector
}
