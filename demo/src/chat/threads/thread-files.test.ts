import { expect, test } from 'vitest'
import { fileNameOf, titleFromFileName } from './thread-files'

test('file names and titles from files', () => {
  expect(fileNameOf('Trip to Oslo: day 1/2', 'jsonl')).toBe('Trip-to-Oslo-day-1-2.jsonl')
  expect(fileNameOf('<img src=x>', 'jsonl')).toBe('img-src-x.jsonl')
  expect(fileNameOf('東京', 'jsonl')).toBe('chat.jsonl')
  expect(titleFromFileName('support-chat.json')).toBe('support-chat')
})
