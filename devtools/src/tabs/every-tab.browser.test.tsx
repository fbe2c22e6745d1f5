import { createSessionSource } from '@threadlens/client'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { page } from 'vitest/browser'
import { tabIds } from '../panel/tab-registry'
import { eventually, renderPanel, testPolicy } from '../testing/panel-harness'
import { recordAttempts, variedThreads } from '../testing/varied-threads'

// Every tab over varied threads (random conversations with images, files, refusals, unreadable
// entries, huge tool outputs, failed / retried / aborted calls; an empty thread; an image sent
// then the Calls tab, which once blanked the page), at a phone's width and a desktop's, the Tokens
// tab's findings included: the panel
// shows each without an uncaught error, a console error, or a tab replaced by its error.
// Other seeds and more threads: VITE_TAB_FUZZ_SEED=… VITE_TAB_FUZZ_THREADS=… before the vitest command.
const env = (import.meta as { readonly env?: Readonly<Record<string, string | undefined>> }).env ?? {}
const SEED = Number(env['VITE_TAB_FUZZ_SEED'] ?? 27_2026)
const RANDOM_THREADS = Number(env['VITE_TAB_FUZZ_THREADS'] ?? 5)
const widths = [390, 1440] as const

const uncaught: string[] = []
const consoleErrors: string[] = []
const onError = (event: ErrorEvent) => void uncaught.push(`${event.message}`)
const onRejection = (event: PromiseRejectionEvent) => void uncaught.push(`unhandled rejection: ${String(event.reason)}`)
beforeAll(() => {
  globalThis.addEventListener('error', onError)
  globalThis.addEventListener('unhandledrejection', onRejection)
  const original = console.error.bind(console)
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args.map(String).join(' ').slice(0, 2_000))
    original(...args)
  })
})
beforeEach(() => {
  uncaught.length = 0
  consoleErrors.length = 0
})
afterAll(() => {
  globalThis.removeEventListener('error', onError)
  globalThis.removeEventListener('unhandledrejection', onRejection)
  vi.restoreAllMocks()
})

const policy = testPolicy({ name: 'recorded', maxInputTokens: 8_000, keepImagesTurns: 2 })

describe('every tab over varied threads', () => {
  it.each(variedThreads(SEED, RANDOM_THREADS, policy).map((thread) => [thread.name, thread] as const))(
    '%s',
    { timeout: 120_000 },
    async (_name, varied) => {
      const session = createSessionSource({ status: 'idle', threadId: 'unused', calls: [...varied.calls] })
      const panel = await renderPanel({ entries: varied.entries, session, policy, tab: 'calls', height: 640 })
      if (varied.attempts) await recordAttempts(panel.stores, panel.threadId, policy)
      const visited: string[] = []
      try {
        for (const width of widths) {
          await page.viewport(width, 800)
          for (const tab of tabIds) {
            await panel.click(`tab-${tab}`)
            await panel.find(`panel-${tab}`)
            // Give the tab its reads and renders (the call log, token counts, the recall index).
            await new Promise((resolve) => setTimeout(resolve, 60))
            await eventually(() => expect(panel.query(`[data-testid="panel-${tab}"]`)?.getAttribute('aria-busy')).toBeNull())
            const failure = panel.query('[data-testid="threadlens-error-message"], [data-testid="tab-load-error"]')
            expect(failure?.textContent, `${tab} at ${width} px`).toBeUndefined()
            expect(panel.query(`[data-testid="panel-${tab}"]`)?.childElementCount, `${tab} at ${width} px shows something`).toBeGreaterThan(0)
            // The findings of the Tokens tab, over every kind of thread.
            if (tab === 'tokens') await eventually(() => expect(panel.query('[data-testid="findings"]'), `findings at ${width} px`).not.toBeNull())
            // The request-format views too (they once threw on images held by the store).
            if (tab === 'projection') {
              for (const format of ['openai', 'anthropic', 'neutral']) {
                await panel.click(`format-${format}`)
                await new Promise((resolve) => setTimeout(resolve, 30))
                expect(panel.query('[data-testid="threadlens-error-message"]')?.textContent, `projection as ${format} at ${width} px`).toBeUndefined()
              }
            }
            visited.push(`${tab}@${width}`)
          }
        }
      } finally {
        panel.unmount()
      }
      expect(visited).toHaveLength(tabIds.length * widths.length)
      expect(uncaught).toEqual([])
      expect(consoleErrors).toEqual([])
    },
  )
})
