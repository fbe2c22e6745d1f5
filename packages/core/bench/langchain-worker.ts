import { parentPort, workerData } from 'node:worker_threads'
import { buildThread, shapeOf, SYSTEM_PROMPT } from './generate-thread'
import { createMessageCounter, langchainPairing, toLangChainMessages, trim, trimOptions } from './langchain-trim'
import type { OutputStats, TrimPhase, TrimWorkerInput, TrimWorkerMessage } from './langchain-run'
import { countO200k, forgetTokenizerMerges } from './o200k'
import { countOrphans } from './orphans'

// Runs trimMessages in a worker so that the main thread can stop it at a hard time limit
// (worker.terminate() interrupts even a call that never yields), and so LangChain's garbage
// does not land in the heap where threadlens is being timed.
const input = workerData as TrimWorkerInput
const port = parentPort
if (port === null) throw new Error('[threadlens] langchain-worker.ts must run as a worker_thread')
const post = (message: TrimWorkerMessage): void => port.postMessage(message)

const buildStart = performance.now()
const thread = buildThread(input.size)
const messages = toLangChainMessages(thread.entries, SYSTEM_PROMPT)
post({ type: 'ready', prepMs: performance.now() - buildStart, messages: messages.length, shape: shapeOf(thread) })

type MessageCounter = ReturnType<typeof createMessageCounter>['tokenCounter']

async function timedCall(phase: TrimPhase, tokenCounter: MessageCounter, startOnHuman = false, candidates = messages): Promise<OutputStats> {
  post({ type: 'call-start', phase })
  const start = performance.now()
  const output = await trim(candidates, trimOptions(input.budget, tokenCounter, startOnHuman))
  const ms = performance.now() - start
  const stats: OutputStats = { messages: output.length, tokens: tokenCounter(output), orphans: countOrphans(output.map(langchainPairing)) }
  post({ type: 'call-end', phase, ms, output: stats })
  return stats
}

for (let run = 0; run < input.warmup; run++) await timedCall('warmup', createMessageCounter(countO200k).tokenCounter)
// Cold: a counter that has counted nothing, as after a page load.
for (let run = 0; run < input.coldRuns; run++) {
  forgetTokenizerMerges()
  await timedCall('cold', createMessageCounter(countO200k).tokenCounter)
}
// Warm: the same counter after one call, every message's count cached.
const warm = createMessageCounter(countO200k)
forgetTokenizerMerges()
await timedCall('fill', warm.tokenCounter)
for (let run = 0; run < input.warmRuns; run++) await timedCall('warm', warm.tokenCounter)
if (input.startOnHuman) await timedCall('start-on-human', warm.tokenCounter, true)
if (input.orphanSweep) {
  // The thread as it stood before each user turn: where an app would call the model.
  const positionById = new Map(messages.map((message, position) => [message.id, position]))
  let projections = 0
  let withOrphans = 0
  let orphans = 0
  for (const entry of thread.entries) {
    if (entry.kind !== 'message' || entry.payload.role !== 'user') continue
    const position = positionById.get(entry.id) as number
    const stats = await timedCall('sweep', warm.tokenCounter, false, messages.slice(0, position + 1))
    projections++
    if (stats.orphans > 0) withOrphans++
    orphans += stats.orphans
  }
  post({ type: 'sweep', sweep: { projections, withOrphans, orphans } })
}
post({ type: 'done' })
