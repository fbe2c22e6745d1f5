import { describe, expect, it } from 'vitest'
import { readServerSentEvents, type ServerSentEvent, ServerSentEventParser } from './server-sent-events'

function parseAll(chunks: readonly string[]): ServerSentEvent[] {
  const parser = new ServerSentEventParser()
  const events = chunks.flatMap((chunk) => parser.feed(chunk))
  return [...events, ...parser.end()]
}

// Every line ending the standard allows, comments, a multi-line event, an id, a retry, and a BOM.
const stream =
  '\uFEFF: keep-alive\r\n\r\n' +
  'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n' +
  'data: first line\ndata:second line\n\n' +
  'id: 7\rdata: after a lone CR\r\r' +
  'retry: 1000\nevent: ping\ndata:\n\n' +
  'data: {"text":"ø 日本 🎉"}\n\n' +
  ': only a comment\n\n' +
  'data: [DONE]\n\n'

const expected: ServerSentEvent[] = [
  { event: 'message_start', data: '{"type":"message_start"}', id: undefined },
  { event: 'message', data: 'first line\nsecond line', id: undefined },
  { event: 'message', data: 'after a lone CR', id: '7' },
  { event: 'ping', data: '', id: '7' },
  { event: 'message', data: '{"text":"ø 日本 🎉"}', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
]

describe('ServerSentEventParser', () => {
  it('parses a whole stream', () => {
    expect(parseAll([stream])).toEqual(expected)
  })

  it('gives the same events for a stream split in two at every position', () => {
    for (let split = 0; split <= stream.length; split += 1) {
      expect(parseAll([stream.slice(0, split), stream.slice(split)]), `split at ${split}`).toEqual(expected)
    }
  })

  it('gives the same events for a stream fed one character at a time, and in threes', () => {
    expect(parseAll(Array.from(stream))).toEqual(expected)
    const threes: string[] = []
    for (let start = 0; start < stream.length; start += 3) threes.push(stream.slice(start, start + 3))
    expect(parseAll(threes)).toEqual(expected)
  })

  it('treats a CRLF split across chunks as one line break', () => {
    expect(parseAll(['data: a\r', '\n\r', '\ndata: b\r\n\r\n'])).toEqual([
      { event: 'message', data: 'a', id: undefined },
      { event: 'message', data: 'b', id: undefined },
    ])
  })

  it('dispatches an unterminated last event at the end (servers that close right after [DONE])', () => {
    expect(parseAll(['data: x\n\ndata: [DONE]'])).toEqual([
      { event: 'message', data: 'x', id: undefined },
      { event: 'message', data: '[DONE]', id: undefined },
    ])
    expect(parseAll(['data: [DONE]\n'])).toEqual([{ event: 'message', data: '[DONE]', id: undefined }])
  })

  it('dispatches nothing for comments, empty lines and fields without data', () => {
    expect(parseAll([': hi\n\n\n\nevent: lonely\n\n: bye'])).toEqual([])
  })

  it('keeps a field value as it is, except for one leading space', () => {
    expect(parseAll(['data:  two spaces\ndata\n\n'])).toEqual([{ event: 'message', data: ' two spaces\n', id: undefined }])
  })
})

function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = []
  for await (const event of readServerSentEvents(body)) events.push(event)
  return events
}

describe('readServerSentEvents', () => {
  const bytes = new TextEncoder().encode(stream)

  it('decodes UTF-8 split inside multi-byte characters, at every byte position', async () => {
    for (let split = 0; split <= bytes.length; split += 1) {
      expect(await readAll(bodyOf([bytes.subarray(0, split), bytes.subarray(split)])), `split at byte ${split}`).toEqual(expected)
    }
  })

  it('decodes a body delivered one byte at a time', async () => {
    expect(await readAll(bodyOf(Array.from(bytes, (byte) => Uint8Array.of(byte))))).toEqual(expected)
  })

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\ndata: two\n\n'))
      },
      cancel() {
        cancelled = true
      },
    })
    for await (const event of readServerSentEvents(body)) {
      expect(event.data).toBe('one')
      break
    }
    expect(cancelled).toBe(true)
  })
})
