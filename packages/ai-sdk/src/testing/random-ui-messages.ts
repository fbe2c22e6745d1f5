import fc from 'fast-check'
import type { UIMessage } from 'ai'

// Random AI SDK conversations for property tests: every part type a `useChat` app stores, every
// tool state (pending approvals, errors, denials included), metadata, files by reference and as data.

const text = fc.string({ maxLength: 60 })
const word = fc.stringMatching(/^[a-z]{1,8}$/)
const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).filter((value) => !JSON.stringify(value).includes('__proto__'))
const jsonObject = fc.dictionary(word, json, { maxKeys: 3 })
const providerMetadata = fc.option(fc.record({ openai: fc.record({ itemId: word }) }), { nil: undefined })

function withOptional<T extends object>(value: T): T {
  // Drop `undefined` members as JSON does, so generated messages are what a real app stores.
  return JSON.parse(JSON.stringify(value)) as T
}

const filePart = fc.oneof(
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constant('image/png'),
    url: fc.constant('data:image/png;base64,iVBORw0KGgo='),
    filename: fc.option(word, { nil: undefined }),
  }),
  // random bytes as a data: URL (text/plain: counted and sent like any file)
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constant('text/plain'),
    url: fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => `data:text/plain;base64,${btoa(String.fromCharCode(...bytes))}`),
  }),
  // not base64: kept inline as given
  fc.record({ type: fc.constant('file' as const), mediaType: fc.constant('text/plain'), url: word.map((text) => `data:text/plain,${text}`) }),
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constant('application/pdf'),
    url: word.map((name) => `https://files.example.com/${name}.pdf`),
    filename: fc.option(
      word.map((name) => `${name}.pdf`),
      { nil: undefined },
    ),
  }),
  // a blob: URL: kept for the UI, never sent
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constant('image/jpeg'),
    url: word.map((name) => `blob:https://app.example/${name}`),
  }),
)

const userPart = fc.oneof({ arbitrary: fc.record({ type: fc.constant('text' as const), text }), weight: 4 }, { arbitrary: filePart, weight: 1 })

type ToolState =
  'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied'
const toolStates: readonly ToolState[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
]

function toolPart(
  state: ToolState,
  toolCallId: string,
  name: string,
  dynamic: boolean,
  input: Record<string, unknown>,
  output: unknown,
  errorText: string,
): Record<string, unknown> {
  const head = dynamic ? { type: 'dynamic-tool', toolName: name, toolCallId } : { type: `tool-${name}`, toolCallId }
  switch (state) {
    case 'input-streaming':
      return { ...head, state, input: {} }
    case 'input-available':
      return { ...head, state, input }
    case 'approval-requested':
      return { ...head, state, input, approval: { id: `approval-${toolCallId}` } }
    case 'approval-responded':
      // approved, or denied with a reason (errorText stands in for it), before the call has run
      return {
        ...head,
        state,
        input,
        approval:
          errorText.length % 2 === 0
            ? { id: `approval-${toolCallId}`, approved: true }
            : { id: `approval-${toolCallId}`, approved: false, reason: errorText },
      }
    case 'output-available':
      return { ...head, state, input, output }
    case 'output-error':
      return { ...head, state, input, errorText }
    case 'output-denied':
      return { ...head, state, input, approval: { id: `approval-${toolCallId}`, approved: false, reason: errorText } }
  }
}

const assistantPartSeed = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('text' as const), text, providerMetadata }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('reasoning' as const), text }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      state: fc.constantFrom(...toolStates),
      name: fc.constantFrom('weather', 'search', 'read_file'),
      dynamic: fc.boolean(),
      input: jsonObject,
      output: json,
      errorText: text,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('source-url' as const),
      sourceId: word,
      url: word.map((name) => `https://example.com/${name}`),
      title: fc.option(text, { nil: undefined }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('source-document' as const), sourceId: word, title: text }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('data' as const),
      name: fc.constantFrom('weather', 'progress'),
      data: json,
      id: fc.option(word, { nil: undefined }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('file' as const), file: filePart }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'step-start' as const }), weight: 1 },
)

type PartSeed = typeof assistantPartSeed extends fc.Arbitrary<infer T> ? T : never

const turnSeed = fc.record({
  userParts: fc.array(userPart, { minLength: 1, maxLength: 3 }),
  userMetadata: fc.option(fc.record({ createdAt: fc.nat() }), { nil: undefined }),
  assistant: fc.option(fc.array(assistantPartSeed, { minLength: 0, maxLength: 6 }), { nil: undefined, freq: 6 }),
  assistantMetadata: fc.option(fc.record({ model: word, totalTokens: fc.nat() }), { nil: undefined }),
})

/** A random conversation: user turns, each usually answered by an assistant message. Ids unique. */
export const uiConversationArbitrary: fc.Arbitrary<UIMessage[]> = fc
  .record({ system: fc.option(text, { nil: undefined, freq: 4 }), turns: fc.array(turnSeed, { minLength: 1, maxLength: 8 }) })
  .map(({ system, turns }) => {
    const messages: Record<string, unknown>[] = []
    if (system !== undefined) messages.push({ id: 'system-0', role: 'system', parts: [{ type: 'text', text: system }] })
    let toolCounter = 0
    turns.forEach((turn, turnIndex) => {
      messages.push({ id: `user-${turnIndex}`, role: 'user', metadata: turn.userMetadata, parts: turn.userParts })
      if (turn.assistant === undefined) return
      const parts = turn.assistant.map((seed: PartSeed): Record<string, unknown> => {
        switch (seed.kind) {
          case 'text':
            return { type: 'text', text: seed.text, state: 'done', providerMetadata: seed.providerMetadata }
          case 'reasoning':
            return { type: 'reasoning', text: seed.text, state: 'done' }
          case 'tool':
            toolCounter += 1
            return toolPart(seed.state, `call-${toolCounter}`, seed.name, seed.dynamic, seed.input, seed.output, seed.errorText)
          case 'source-url':
            return { type: 'source-url', sourceId: seed.sourceId, url: seed.url, title: seed.title }
          case 'source-document':
            return { type: 'source-document', sourceId: seed.sourceId, mediaType: 'application/pdf', title: seed.title }
          case 'data':
            return { type: `data-${seed.name}`, id: seed.id, data: seed.data }
          case 'file':
            return seed.file
          case 'step-start':
            return { type: 'step-start' }
        }
      })
      messages.push({ id: `assistant-${turnIndex}`, role: 'assistant', metadata: turn.assistantMetadata, parts: [{ type: 'step-start' }, ...parts] })
    })
    return withOptional(messages) as unknown as UIMessage[]
  })
