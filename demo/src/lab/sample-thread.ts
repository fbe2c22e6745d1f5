import { createThread, type Thread } from '@threadlens/core'

/** Markup a hostile page or email could put into a chat; the demo must show it as text. */
export const hostileMessageText = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
export const hostileLinkText = '<a href="javascript:window.__xss=3">x</a>'

export const sampleSystemPrompt =
  'You are a concise travel planner. Always respect the travellers’ dietary constraints and prefer late-morning starts.'

/** Seqs the page and tests refer to (checked by sample-thread.test.ts). */
export const sampleSeqs = {
  pinnedConstraints: 12,
  pinOp: 14,
  summary: 15,
  parallelCalls: [17, 18],
  parallelResults: [19, 20],
  failedResult: 24,
  hostileMessage: 28,
  hostileToolResult: 32,
  latestUser: 42,
} as const

const startedAt = Date.UTC(2027, 1, 14, 9, 0, 0)

/**
 * A trip-planning conversation, built deterministically (fixed clock and ids) so every
 * reload projects byte-identically.
 */
export function createSampleThread(): Thread {
  let tick = 0
  let nextId = 0
  const thread = createThread({
    id: 'sample-trip-japan',
    now: () => startedAt + 47_000 * tick++,
    createId: () => `sample-${String(nextId++).padStart(3, '0')}`,
  })
  const script: Script = {
    thread,
    user: (content, requestId) => thread.append({ kind: 'message', payload: { role: 'user', content }, refs: { requestId } }),
    assistant: (content, requestId, callId) =>
      thread.append({ kind: 'message', payload: { role: 'assistant', content }, refs: { requestId, callId } }),
  }
  // Each part appends in turn: the seqs in the comments (and in sampleSeqs) follow from this order.
  appendEarlyConversation(script)
  appendParallelBatch(script)
  appendFailedBooking(script)
  appendHostileContent(script)
  appendKyotoAndBudget(script)
  return thread
}

/** The thread being written, and shorthands for its user and assistant messages. */
interface Script {
  readonly thread: Thread
  user(content: string, requestId: string): void
  assistant(content: string, requestId: string, callId: string): void
}

/** Seqs 0–15: the trip is set up, the dietary constraints are pinned, and a summary covers seqs 0–11. */
function appendEarlyConversation(script: Script): void {
  // r1..r6: the early conversation, later covered by the summary at seq 15.
  script.user(
    'Hi! We’re planning 10 days in Japan in early April 2027, two of us. Cherry blossoms 🌸 are a must. Budget about €4,000 without flights.',
    'r1',
  ) // 0
  script.assistant(
    'Lovely timing: early April is peak sakura in Tokyo and Kyoto. Which cities are you considering, and do you prefer a relaxed or a packed pace?',
    'r1',
    'c1',
  ) // 1
  script.user('Tokyo and Kyoto for sure, plus somewhere less touristy. We both hate early mornings 😅', 'r2') // 2
  script.thread.append({
    kind: 'tool_call',
    payload: { name: 'get_weather_normals', arguments: { city: 'Kyoto', month: '2027-04' } },
    refs: { requestId: 'r2', callId: 'c2', toolCallId: 'tc-weather-kyoto' },
  }) // 3
  script.thread.append({
    kind: 'tool_result',
    payload: { name: 'get_weather_normals', result: { avgHighC: 19, avgLowC: 7, rainyDays: 10, sakuraPeak: '2027-03-31..2027-04-07' } },
    refs: { requestId: 'r2', toolCallId: 'tc-weather-kyoto' },
  }) // 4
  script.assistant(
    'Kyoto in early April: highs around 19 °C, lows 7 °C, some rain. I suggest Tokyo (4 nights) → Kanazawa (2) → Kyoto (4). Kanazawa is quieter and has Kenroku-en, one of Japan’s finest gardens.',
    'r2',
    'c3',
  ) // 5
  script.user('What’s the fastest way from Tokyo to Kanazawa?', 'r3') // 6
  script.assistant('The Hokuriku Shinkansen (北陸新幹線), Kagayaki service: about 2 h 30 min from Tokyo Station, no change needed.', 'r3', 'c4') // 7
  script.user('Could you also write the hotel names in Japanese so we can show them to taxi drivers?', 'r4') // 8
  script.assistant('Of course: Tokyo — ホテル雅叙園東京; Kanazawa — 金沢白鳥路ホテル山楽; Kyoto — 京都 柊家旅館 (Hiiragiya Ryokan).', 'r4', 'c5') // 9
  script.user('Perfect. Let’s lock the route: Tokyo 4 nights, Kanazawa 2, Kyoto 4.', 'r5') // 10
  script.assistant('Locked ✅ Tokyo Apr 1–5, Kanazawa Apr 5–7, Kyoto Apr 7–11.', 'r5', 'c6') // 11
  script.user('Important: I’m vegetarian and my partner has a severe peanut allergy 🥜🚫. Please always keep that in mind.', 'r6') // 12
  script.assistant(
    'Noted, and I will keep it in every suggestion: vegetarian dishes only, and I will flag anything that may contain peanuts (some sesame sauces are cut with peanut).',
    'r6',
    'c7',
  ) // 13
  script.thread.append({ kind: 'context_op', payload: { op: 'pin', target: 12, reason: 'dietary constraints must stay in every request' } }) // 14
  script.thread.append({
    kind: 'summary',
    payload: {
      fromSeq: 0,
      toSeq: 11,
      content:
        'Two travellers, 10 days in Japan, early April 2027, ~€4,000 excluding flights, sakura a must, late risers. ' +
        'Route locked: Tokyo Apr 1–5, Kanazawa Apr 5–7 (Hokuriku Shinkansen, ~2.5 h), Kyoto Apr 7–11 (highs ~19 °C, some rain). ' +
        'Hotels in Japanese for taxis: ホテル雅叙園東京, 金沢白鳥路ホテル山楽, 京都 柊家旅館.',
    },
  }) // 15
}

/** Seqs 16–21: one model call with two tool calls and their two results. */
function appendParallelBatch(script: Script): void {
  // r7: a parallel batch — one model call, two tool calls, two results.
  script.user('Can you check trains Tokyo → Kanazawa on April 5 and hotels in Kanazawa for April 5–7 at the same time?', 'r7') // 16
  script.thread.append({
    kind: 'tool_call',
    payload: { name: 'search_trains', arguments: { from: 'Tokyo', to: 'Kanazawa', date: '2027-04-05', passengers: 2 } },
    refs: { requestId: 'r7', callId: 'c8', toolCallId: 'tc-trains' },
  }) // 17
  script.thread.append({
    kind: 'tool_call',
    payload: {
      name: 'search_hotels',
      arguments: { city: 'Kanazawa', checkIn: '2027-04-05', checkOut: '2027-04-07', guests: 2, maxPerNightEur: 180 },
    },
    refs: { requestId: 'r7', callId: 'c8', toolCallId: 'tc-hotels' },
  }) // 18
  script.thread.append({
    kind: 'tool_result',
    payload: {
      name: 'search_trains',
      result: {
        trains: [
          { id: 'kagayaki-505', departs: '08:24', arrives: '10:53', seatsLeft: 40 },
          { id: 'kagayaki-509', departs: '10:24', arrives: '12:56', seatsLeft: 12 },
          { id: 'hakutaka-563', departs: '11:12', arrives: '14:21', seatsLeft: 88 },
        ],
      },
    },
    refs: { requestId: 'r7', toolCallId: 'tc-trains' },
  }) // 19
  script.thread.append({
    kind: 'tool_result',
    payload: {
      name: 'search_hotels',
      result: {
        hotels: [
          { name: 'Hotel Intergate Kanazawa', nameJa: 'ホテルインターゲート金沢', perNightEur: 132, rating: 4.4 },
          { name: 'Kaname Inn Tatemachi', nameJa: 'KANAME INN TATEMACHI', perNightEur: 118, rating: 4.5 },
          { name: 'Ryokan Yachiyo', nameJa: '旅館 八千代', perNightEur: 176, rating: 4.7 },
        ],
      },
    },
    refs: { requestId: 'r7', toolCallId: 'tc-hotels' },
  }) // 20
  script.assistant(
    'Best fit for late risers: Kagayaki 509 at 10:24 → 12:56 😴. For the stay, Ryokan Yachiyo (旅館 八千代, €176/night) is the most atmospheric; Kaname Inn is the budget pick at €118.',
    'r7',
    'c9',
  ) // 21
}

/** Seqs 22–27: a tool that fails, and the conversation going on after it. */
function appendFailedBooking(script: Script): void {
  // r8: a tool that fails.
  script.user('Book the Kagayaki 509 please, two seats together.', 'r8') // 22
  script.thread.append({
    kind: 'tool_call',
    payload: { name: 'book_train', arguments: { trainId: 'kagayaki-509', date: '2027-04-05', seats: 2, together: true } },
    refs: { requestId: 'r8', callId: 'c10', toolCallId: 'tc-book' },
  }) // 23
  script.thread.append({
    kind: 'tool_result',
    payload: {
      name: 'book_train',
      error: 'JR-West reservation API timed out after 30 s (upstream 504). No booking was made and nothing was charged.',
    },
    refs: { requestId: 'r8', toolCallId: 'tc-book' },
  }) // 24
  script.assistant(
    'The booking failed on JR-West’s side (timeout): nothing was booked or charged. Reservations open one month ahead, so you can retry from March 5 on the SmartEX app.',
    'r8',
    'c11',
  ) // 25

  script.user('OK, I’ll book it myself. What vegetarian food should we try in Kanazawa? Remember the peanut thing.', 'r9') // 26
  script.assistant(
    'Try shōjin ryōri (精進料理, Buddhist temple cuisine), Kaga vegetables (加賀野菜) and fu (麩, wheat gluten) dishes. Ask for “ピーナッツなし” (no peanuts) with goma-dofu and sesame dressings.',
    'r9',
    'c12',
  ) // 27
}

/** Seqs 28–33: markup pasted by the user and returned by a tool; both must render as text. */
function appendHostileContent(script: Script): void {
  // r10: hostile markup pasted by the user; it must render as text.
  script.user(`Pasted from the ryokan’s confirmation email, what does this mean? ${hostileMessageText}`, 'r10') // 28
  script.assistant(
    'That is raw HTML from the email (an image tag and a script), not a message for you. It says nothing about your booking; your confirmation details are elsewhere in the email.',
    'r10',
    'c13',
  ) // 29

  script.user('Can you open the ryokan’s booking page and check the cancellation policy?', 'r11') // 30
  script.thread.append({
    kind: 'tool_call',
    payload: { name: 'fetch_page', arguments: { url: 'https://ryokan-yachiyo.example/booking' } },
    refs: { requestId: 'r11', callId: 'c14', toolCallId: 'tc-fetch' },
  }) // 31
  script.thread.append({
    kind: 'tool_result',
    payload: { name: 'fetch_page', result: `Cancellation: free until 7 days before arrival, 50% after. Manage booking: ${hostileLinkText}` },
    refs: { requestId: 'r11', toolCallId: 'tc-fetch' },
  }) // 32
  script.assistant('Free cancellation until March 29 (7 days before April 5); after that you pay 50%.', 'r11', 'c15') // 33
}

/** Seqs 34–42: the Kyoto days, a budget tool call, and the latest user message. */
function appendKyotoAndBudget(script: Script): void {
  script.user('Kyoto days: one temple-heavy day, one day for 嵐山 Arashiyama, one rest day. Suggest an order? 🙏', 'r12') // 34
  script.assistant(
    'Apr 8: Arashiyama early-ish (bamboo grove, Tenryū-ji, 嵯峨野 lunch). Apr 9: rest day, Nishiki market in the afternoon. Apr 10: temples — Kiyomizu-dera → Sannenzaka → Kōdai-ji, with the Maruyama park sakura at dusk 🌸.',
    'r12',
    'c16',
  ) // 35
  script.user('Add a tea ceremony somewhere. Also our friend Min-jun joins in Kyoto — any Korean-speaking guides? 감사합니다!', 'r13') // 36
  script.assistant(
    'Tea ceremony: Camellia Garden near Kōdai-ji fits Apr 10. Several Kyoto guide agencies list 한국어 guides; book two weeks ahead in sakura season.',
    'r13',
    'c17',
  ) // 37

  script.user('Last thing: estimated total so far versus our €4,000 budget?', 'r14') // 38
  script.thread.append({
    kind: 'tool_call',
    payload: {
      name: 'calculate_budget',
      arguments: {
        currency: 'EUR',
        items: [
          { label: 'hotels', amount: 2140 },
          { label: 'trains', amount: 610 },
          { label: 'food', amount: 520 },
          { label: 'activities', amount: 150 },
        ],
      },
    },
    refs: { requestId: 'r14', callId: 'c18', toolCallId: 'tc-budget' },
  }) // 39
  script.thread.append({
    kind: 'tool_result',
    payload: { name: 'calculate_budget', result: { totalEur: 3420, budgetEur: 4000, remainingEur: 580 } },
    refs: { requestId: 'r14', toolCallId: 'tc-budget' },
  }) // 40
  script.assistant('Estimated €3,420: hotels €2,140, trains €610, food €520, activities €150. That leaves €580 of slack ✨', 'r14', 'c19') // 41

  script.user('Thanks! Can you turn the whole plan into a day-by-day list I can print?', 'r15') // 42
}
