// The consumer test's server-chat step, in Chromium: the README's adopted server chat (`useChat`,
// resume on, the devtools panel) against a Node server running the README's route with the AI SDK's
// mock model (apps/server-chat). One page session: send, a tool call, regenerate, reload, a second
// tab kept live by `watch`, stop mid-answer, reload mid-answer and resume, the Calls tab's usage
// and timings. Every check reads what the page shows.
import type { Browser, Page } from '@playwright/test'
import { assert, PAGE_TIMEOUT_MS, watchErrors } from './page-checks.ts'

const SLOW_ANSWER = `Slow answer: ${Array.from({ length: 28 }, (_, index) => `word ${index + 1}, `).join('')}done.`

const composer = (page: Page) => page.locator('input[aria-label="Message"]')
const enabledComposer = (page: Page) => page.locator('input[aria-label="Message"]:enabled')
const articles = (page: Page) => page.locator('main.chat article').allTextContents()
const answers = (page: Page) => page.locator('article[data-role="assistant"]').allTextContents()
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

/** Polls `read` until `accept` takes its value; the error shows the last value seen. */
async function until<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = PAGE_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (accept(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 1500)}`)
    await sleep(100)
  }
}

/** Waits until `page` shows `shown`: the chat's messages as they were. */
const untilShown = (what: string, page: Page, shown: readonly string[]) =>
  until(
    what,
    () => articles(page),
    (now) => JSON.stringify(now) === JSON.stringify(shown),
  )

const lastAnswer = async (page: Page) => (await answers(page)).at(-1) ?? ''
/** The answer to the last question: '' until an assistant message follows it. */
const answerInProgress = async (page: Page) => {
  const last = page.locator('main.chat article:last-of-type[data-role="assistant"]')
  return (await last.count()) === 0 ? '' : ((await last.textContent()) ?? '')
}

async function send(page: Page, text: string): Promise<void> {
  await enabledComposer(page).waitFor({ timeout: PAGE_TIMEOUT_MS })
  await composer(page).fill(text)
  await composer(page).press('Enter')
  await until(
    `the user message "${text}" is shown`,
    () => page.locator('article[data-role="user"]').allTextContents(),
    (users) => users.at(-1) === text,
  )
}

const ready = (page: Page) => enabledComposer(page).waitFor({ timeout: PAGE_TIMEOUT_MS })

/** The statuses of the page's resume requests (GET) and stops (DELETE) at `/api/chat/<id>/stream`, in order. */
function watchStreamRequests(page: Page): string[] {
  const seen: string[] = []
  page.on('response', (response) => {
    if (/\/api\/chat\/[^/]+\/stream$/.test(new URL(response.url()).pathname)) seen.push(`${response.request().method()} ${response.status()}`)
  })
  return seen
}

/** One page session (a second tab for a while): each stage starts from the chat the one before left. */
export async function checkServerChat(browser: Browser, url: string): Promise<void> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors = watchErrors(page)
    const streams = watchStreamRequests(page)
    await page.goto(url)
    await ready(page)
    await until(
      'on mount the page asks for a running reply to resume (none yet: 204)',
      async () => streams.slice(),
      (seen) => seen.length > 0,
    )
    assert(streams[0] === 'GET 204', `on mount the page's resume request answered ${streams[0]}`)

    // a tool call and its result (two model steps in one request), then a plain answer
    await send(page, 'Where is order 7?')
    await until(
      'the tool call answer',
      () => lastAnswer(page),
      (text) => text.includes('Order 7 has shipped.'),
    )
    const toolPart = await page.locator('article[data-role="assistant"] pre').first().textContent()
    assert(
      toolPart?.includes('"state": "output-available"') && toolPart.includes('"status": "shipped"'),
      `the tool part shows no result: ${toolPart}`,
    )
    await send(page, 'hello there')
    await until(
      'the streamed answer',
      () => lastAnswer(page),
      (text) => text === 'Answer 1: you said "hello there".',
    )

    // regenerate replaces the answer (the old one stays in the thread's earlier branch)
    await ready(page)
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await until(
      'the regenerated answer',
      () => answers(page),
      (texts) => texts.length === 2 && texts[1] === 'Answer 2: you said "hello there".',
    )

    // reload: the history comes back from IndexedDB, as it was
    await ready(page)
    const before = await articles(page)
    await page.reload()
    await untilShown('the history after a reload', page, before)

    // a second tab shows the thread, and hears the first tab's next turn live (`chat.watch`)
    const second = await context.newPage()
    const secondErrors = watchErrors(second)
    await second.goto(url)
    await untilShown('the second tab shows the thread', second, before)
    await send(page, 'from the first tab')
    await until(
      'the first tab answer',
      () => lastAnswer(page),
      (text) => text === 'Answer 3: you said "from the first tab".',
    )
    await until(
      'the second tab shows the first tab’s turn without a reload',
      () => answers(second),
      (texts) => texts.at(-1) === 'Answer 3: you said "from the first tab".',
    )
    assert(secondErrors.length === 0, `the second tab reported errors:\n${secondErrors.join('\n')}`)
    await second.close()

    await checkStop(page, streams)
    await checkResume(page, streams)
    await checkCallsTab(page)
    // the resumed answer was stored (the Calls tab listed its call): a reload shows the chat as it was
    const shown = await articles(page)
    await page.reload()
    await untilShown('the chat after the last reload', page, shown)
    assert(errors.length === 0, `the page reported errors:\n${errors.join('\n')}`)
  } finally {
    await context.close()
  }
}

/** Stop mid-answer: the answer stops growing, the server's reply is cancelled (DELETE), and a reload shows the partial answer once, with nothing resumed. */
async function checkStop(page: Page, streams: string[]): Promise<void> {
  await send(page, 'tell me slowly')
  await until(
    'the slow answer streams in',
    () => answerInProgress(page),
    (text) => text.includes('word 3,'),
  )
  await page.getByRole('button', { name: 'Stop' }).click()
  await ready(page)
  const partial = await lastAnswer(page)
  assert(partial.startsWith('Slow answer: word 1,') && !partial.includes('done.'), `after Stop the answer reads: ${partial}`)
  await until(
    'the stop reaches the server',
    async () => streams.at(-1),
    (last) => last === 'DELETE 204',
  )
  await sleep(1000)
  assert((await lastAnswer(page)) === partial, 'the answer grew after Stop')
  const shown = await articles(page)
  const requestsBefore = streams.length
  await page.reload()
  await until(
    'the stopped answer after a reload',
    () => articles(page),
    (after) => JSON.stringify(after) === JSON.stringify(shown),
  )
  await until(
    'the reloaded page asks to resume',
    async () => streams.slice(requestsBefore),
    (seen) => seen.length > 0,
  )
  assert(streams[requestsBefore] === 'GET 204', `after Stop there is nothing to resume, the GET answered ${streams[requestsBefore]}`)
  await sleep(600)
  assert(JSON.stringify(await articles(page)) === JSON.stringify(shown), 'the stopped answer changed after the reload')
}

/** Reload in the middle of an answer: the reloaded page resumes it (GET 200) and shows it whole, once. */
async function checkResume(page: Page, streams: string[]): Promise<void> {
  await send(page, 'again, slowly')
  const partial = await until(
    'the slow answer streams in',
    () => answerInProgress(page),
    (text) => text.includes('word 3,'),
  )
  assert(!partial.includes('done.'), 'the slow answer was whole before the reload')
  const requestsBefore = streams.length
  await page.reload()
  await until(
    'the resumed answer completes after the reload',
    () => lastAnswer(page),
    (text) => text.endsWith('done.'),
  ).catch((error: Error) => {
    throw new Error(`${error.message} (requests to resume or stop since the reload: ${streams.slice(requestsBefore).join(', ') || 'none'})`)
  })
  assert(streams[requestsBefore] === 'GET 200', `the reloaded page's resume GET answered ${streams[requestsBefore]}`)
  const users = await page.locator('article[data-role="user"]').allTextContents()
  const all = await answers(page)
  assert(
    all.at(-1) === SLOW_ANSWER && users.at(-1) === 'again, slowly',
    `after resuming, the last turn is ${JSON.stringify([users.at(-1), all.at(-1)])}`,
  )
  assert(all.length === users.length, `${users.length} questions and ${all.length} answers: an answer is duplicated or lost`)
}

/** The devtools panel's Calls tab: the server's usage, stop reason, timings and steps, for the tool call and the resumed answer. */
async function checkCallsTab(page: Page): Promise<void> {
  const devtools = page.getByTestId('threadlens-devtools')
  await devtools.getByTestId('devtools-toggle').click()
  await devtools.getByTestId('tab-calls').click()
  const rows = devtools.getByTestId('call-row')
  // order 7, "hello there" (regenerated: the first answer's call is in the earlier branch), the first
  // tab's turn, the stopped answer, the resumed one (listed once its reply is stored)
  const count = await until(
    'the Calls tab lists the five calls of the current branch',
    () => rows.count(),
    (found) => found === 5,
  )
  const details: string[] = []
  for (let index = 0; index < count; index += 1) {
    await rows.nth(index).click()
    const detail = devtools.getByTestId('call-detail')
    await until(
      `call ${index + 1} is shown`,
      async () => ((await detail.count()) === 1 ? detail.getAttribute('data-call-id') : null),
      (id) => id !== null && !details.some((text) => text.startsWith(`${id}|`)),
    )
    await detail.getByTestId('call-timing').waitFor({ timeout: PAGE_TIMEOUT_MS })
    details.push(`${await detail.getAttribute('data-call-id')}|${(await detail.innerText()).replace(/\s+/g, ' ')}`)
  }
  const toolCall = details.find((text) => text.includes('usage: 600 in, 9 out'))
  assert(toolCall !== undefined, `no call shows the tool call's usage (2 steps: 200 + 400 in, 5 + 4 out):\n${details.join('\n')}`)
  assert(/stop: stop/.test(toolCall) && /model consumer-shop-model/.test(toolCall), `the tool call's stop reason or model is missing: ${toolCall}`)
  assert(/first token \d+(\.\d)? m?s · took \d+(\.\d)? m?s/.test(toolCall), `the tool call's timings are missing: ${toolCall}`)
  assert(toolCall.includes('2 model steps in this one request'), `the tool call's two steps are missing: ${toolCall}`)
  const resumed = details.find((text) => / usage: [\d,]+ in, 30 out/.test(text))
  assert(
    resumed !== undefined && /first token \d+(\.\d)? m?s · took \d+(\.\d)? m?s/.test(resumed),
    `no call shows the resumed answer's usage (30 out) and timings:\n${details.join('\n')}`,
  )
}
