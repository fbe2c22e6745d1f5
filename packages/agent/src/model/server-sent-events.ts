/** One dispatched server-sent event. */
export interface ServerSentEvent {
  /** The `event:` field; `message` when the event named none. */
  readonly event: string
  /** The `data:` lines joined by `\n`. */
  readonly data: string
  /** The last `id:` seen so far; `undefined` before any. */
  readonly id: string | undefined
}

const lineFeed = 10
const carriageReturn = 13
const byteOrderMark = 0xfeff

/**
 * An incremental parser for the `text/event-stream` format (WHATWG HTML, "server-sent events"),
 * fed decoded text in chunks of any size: a line, a `\r\n` pair, or a multi-line event may be
 * split anywhere between two `feed` calls. Comments (`: keep-alive`) and `retry:` are skipped.
 *
 * One deliberate leniency: at `end()`, an unterminated last line is read and a pending event is
 * dispatched (the standard discards it), because some OpenAI-compatible servers close the stream
 * right after `data: [DONE]` with no blank line.
 */
export class ServerSentEventParser {
  #pendingLine = ''
  #atStart = true
  // A chunk ended in `\r`: a `\n` starting the next chunk belongs to the same line break.
  #skipLineFeed = false
  #data = ''
  #hasData = false
  #eventType = ''
  #lastEventId: string | undefined = undefined

  /** Reads a chunk of text and returns the events it completed, in order. */
  feed(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = []
    if (text.length === 0) return events
    let start = 0
    if (this.#atStart) {
      this.#atStart = false
      if (text.charCodeAt(0) === byteOrderMark) start = 1
    }
    if (this.#skipLineFeed) {
      this.#skipLineFeed = false
      if (text.charCodeAt(start) === lineFeed) start += 1
    }
    for (let index = start; index < text.length; index += 1) {
      const code = text.charCodeAt(index)
      if (code !== lineFeed && code !== carriageReturn) continue
      const line = this.#pendingLine + text.slice(start, index)
      this.#pendingLine = ''
      this.#readLine(line, events)
      if (code === carriageReturn) {
        if (index + 1 === text.length) this.#skipLineFeed = true
        else if (text.charCodeAt(index + 1) === lineFeed) index += 1
      }
      start = index + 1
    }
    this.#pendingLine += text.slice(start)
    return events
  }

  /** Ends the stream: returns the event an unterminated tail completes, if any. */
  end(): ServerSentEvent[] {
    const events: ServerSentEvent[] = []
    if (this.#pendingLine !== '') {
      const line = this.#pendingLine
      this.#pendingLine = ''
      this.#readLine(line, events)
    }
    this.#readLine('', events)
    return events
  }

  #readLine(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      this.#dispatch(events)
      return
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32 /* ' ' */) value = value.slice(1)
    switch (field) {
      case 'event':
        this.#eventType = value
        return
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value
        this.#hasData = true
        return
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value
        return
      default:
        // `retry:` and unknown fields are ignored: clients never reconnect a model call.
        return
    }
  }

  #dispatch(events: ServerSentEvent[]): void {
    if (this.#hasData) events.push({ event: this.#eventType === '' ? 'message' : this.#eventType, data: this.#data, id: this.#lastEventId })
    this.#data = ''
    this.#hasData = false
    this.#eventType = ''
  }
}

/**
 * The server-sent events of a response body, decoded as UTF-8 across chunk boundaries. Cancels the
 * body when the caller stops early, so the connection is released.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const parser = new ServerSentEventParser()
  let finished = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      yield* parser.feed(decoder.decode(value, { stream: true }))
    }
    finished = true
    yield* parser.feed(decoder.decode())
    yield* parser.end()
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}
