import { presets, project } from '../../src/index'
import { createRecallIndex } from '../../src/exports/recall'
import { conversationThread, loadConversation } from './locomo-data'
import { coldCounter } from '../o200k'
const conversation = loadConversation('26')
const { thread } = conversationThread(conversation)
const counter = coldCounter()
const index = createRecallIndex()
const policy = presets.shortContext({ maxInputTokens: 8192, reserveOutputTokens: 0, recall: {} })
for (const q of (conversation as any).questions.slice(0, 12)) {
  const r = project({ thread, policy, counter, pending: [{ role: 'user', content: q.question }], recall: index })
  const raw = index.search({ entries: thread.entries, query: q.question, from: 0, before: 100000, limit: 64 })
  console.log(q.question.slice(0, 50).padEnd(50), 'terms', r.meta.recall?.query.join(','), 'raw hits', raw.length, 'chosen', r.meta.recall?.hits.length, 'seqs', r.meta.recall?.seqs.length, 'tokens', r.meta.tokens.recall, '/', r.meta.recall?.budget)
}
