import { expect, test } from 'vitest'
import { fileNameOf, titleFromFileName, withTitle } from './thread-files'

test('the export header gets the shown title; the entries are left byte for byte', () => {
  const header = { format: 'threadlens.thread', version: 1, thread: { id: 't', title: 'New chat', createdAt: 1, updatedAt: 2, parent: null, metadata: {} }, entryCount: 1 }
  const entry = '{"id":"e","threadId":"t","seq":0,"kind":"message","payload":{"role":"user","content":"hi"},"refs":{},"createdAt":1}'
  const renamed = withTitle(`${JSON.stringify(header)}\n${entry}\n`, 'Trip "to" Oslo')
  const [first, second, rest] = renamed.split('\n')
  expect(JSON.parse(first as string)).toEqual({ ...header, thread: { ...header.thread, title: 'Trip "to" Oslo' } })
  expect(second).toBe(entry)
  expect(rest).toBe('')
})

test('file names and titles from files', () => {
  expect(fileNameOf('Trip to Oslo: day 1/2', 'jsonl')).toBe('Trip-to-Oslo-day-1-2.jsonl')
  expect(fileNameOf('<img src=x>', 'jsonl')).toBe('img-src-x.jsonl')
  expect(fileNameOf('東京', 'jsonl')).toBe('chat.jsonl')
  expect(titleFromFileName('support-chat.json')).toBe('support-chat')
})
