/** An item of a merged stream: an event of the source, or a notice given while the source was busy. */
export type Merged<TEvent, TNotice> = { readonly kind: 'event'; readonly value: TEvent } | { readonly kind: 'notice'; readonly value: TNotice }

/**
 * Passes `source` through and, in between, every notice pushed while the source is waiting (a
 * retry announced during the backoff before the next attempt), as soon as it is pushed: a UI can
 * count down the wait instead of hearing about it after the fact. Stopping early returns `source`.
 */
export async function* withNotices<TEvent, TNotice>(
  source: (push: (notice: TNotice) => void) => AsyncIterable<TEvent>,
): AsyncGenerator<Merged<TEvent, TNotice>, void, undefined> {
  const notices: TNotice[] = []
  let wake: (() => void) | undefined
  const iterator = source((notice) => {
    notices.push(notice)
    wake?.()
  })[Symbol.asyncIterator]()
  let next: Promise<IteratorResult<TEvent>> | undefined
  try {
    for (;;) {
      while (notices.length > 0) yield { kind: 'notice', value: notices.shift() as TNotice }
      next ??= iterator.next()
      const woken = new Promise<'notice'>((resolve) => {
        wake = () => resolve('notice')
      })
      const first = await Promise.race([next, woken])
      wake = undefined
      if (first === 'notice') continue
      next = undefined
      if (first.done === true) {
        while (notices.length > 0) yield { kind: 'notice', value: notices.shift() as TNotice }
        return
      }
      yield { kind: 'event', value: first.value }
    }
  } finally {
    // An async generator runs `return` only after a pending `next` settles: do not wait for that
    // here (it may be a long backoff); the source is closed as soon as it can be.
    if (next === undefined) await iterator.return?.(undefined)
    else
      void next.then(
        () => iterator.return?.(undefined),
        () => undefined,
      )
  }
}
