// Node-only test helpers: imported by `*.test.ts` files, never by the package's entry point.
import type { ModelStreamEvent } from '../model/model-client'

/** Every event of a stream that is expected to end normally. */
export async function eventsOf(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

/** The error a stream is expected to throw, and the events it yielded before. */
export async function failure(stream: AsyncIterable<ModelStreamEvent>): Promise<{ error: unknown; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = []
  try {
    for await (const event of stream) events.push(event)
  } catch (error) {
    return { error, events }
  }
  throw new Error(`expected the stream to throw; it ended with ${JSON.stringify(events.at(-1))}`)
}

/** The text a stream's events spell out. */
export function textOf(events: readonly ModelStreamEvent[]): string {
  return events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')
}

/** Events already read, as a stream again (to collect them into a reply). */
export async function* toIterable(events: readonly ModelStreamEvent[]): AsyncGenerator<ModelStreamEvent> {
  yield* events
}
