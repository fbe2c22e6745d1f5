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
