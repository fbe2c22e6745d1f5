#!/usr/bin/env bash
# `npm run bench` / `pnpm bench`: installs what is missing, then runs each bench in turn.
# Benches print tables and write JSON under bench-results/ (gitignored); none of them fails on a slow figure.
# Add further benches (store and devtools in headless Chromium) as more steps at the end; a step that
# needs Chromium should call `bash .ci/setup.sh --with-chromium` first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
mkdir -p bench-results

TSX=node_modules/.bin/tsx
[ -x "$TSX" ] || { echo "[threadlens] $TSX is missing: run bash .ci/setup.sh (tsx is a root devDependency)" >&2; exit 1; }

step() {
  echo
  echo "== bench: $1"
}

# What an app downloads eagerly per entry point: the built packages bundled by Vite, minified and
# gzipped, lazy chunks (tokenizer ranks, devtools panel) counted apart (~30 s, the build included).
# Writes bench-results/bundle-sizes.json.
step "bundle sizes of the built packages (e2e/consumers/bundle-sizes.ts)"
npm run --silent build >/dev/null
"$TSX" e2e/consumers/bundle-sizes.ts

# What adopting threadlens costs the README's useChat app: both example apps built for production,
# loaded five times each in headless Chromium (first and returning visits): bytes before any
# interaction, first paint, message box ready, when the tokenizer ranks arrive (~1 min).
step "adoption first load (packages/ai-sdk/bench/adoption-first-load.bench.ts)"
bash .ci/setup.sh --with-chromium >/dev/null
"$TSX" packages/ai-sdk/bench/adoption-first-load.bench.ts

# How far the download-free token estimate is from the exact counts on public text, per corpus and
# encoding, against the margin it is multiplied by (~5 s).
step "token estimate (packages/core/bench/tokens/estimate.bench.ts)"
"$TSX" packages/core/bench/tokens/estimate.bench.ts

# What the exact counter's download could weigh: the o200k ranks as gpt-tokenizer ships them beside a
# binary form, gzip and brotli, and the time to read each back (~30 s).
step "tokenizer ranks, as shipped and as a binary file (packages/core/bench/tokens/ranks-download.bench.ts)"
"$TSX" packages/core/bench/tokens/ranks-download.bench.ts

# What a ThreadlensClient holds after browsing 1,000 stored threads, with views let go (gcTime) and
# kept (gcTime: Infinity), side by side (~15 s; Dexie over fake-indexeddb in Node).
step "client after browsing 1,000 threads (packages/client/bench/browse-threads.bench.ts)"
node --expose-gc --import tsx packages/client/bench/browse-threads.bench.ts

# Core projection vs LangChain trimMessages (Node; ~3–4 min on 2 cores, most of it waiting out
# trimMessages at 100k entries; THREADLENS_BENCH_LIMIT_S sets its per-call limit, default 60).
step "core projection (packages/core/bench/projection.bench.ts)"
"$TSX" packages/core/bench/projection.bench.ts

# Prompt-cache prefix reuse over a scripted 300-turn session (threadlens policies vs trimMessages), the
# same session billed by Anthropic and OpenAI cache rules at 8k and 128k budgets (prompt-cache simulator),
# and compact() on a 10k-entry thread (Node; ~1–1.5 min).
step "context quality (packages/core/bench/context-quality.bench.ts)"
"$TSX" packages/core/bench/context-quality.bench.ts

# What of a long real conversation reaches the model under a budget: three LoCoMo conversations
# (packages/core/bench/fixtures/locomo) asked their 385 questions by sliding windows, trimMessages,
# BM25 retrieval and threadlens policies (window, compaction, recall) at 4k–32k, plus a synthetic
# tool-heavy trace; no model is called (~2–3 min on 2 cores). Writes bench-results/context-quality-locomo.json.
step "context quality on LoCoMo (packages/core/bench/quality/locomo.bench.ts)"
"$TSX" packages/core/bench/quality/locomo.bench.ts

# Which search engine recall uses, side by side in one run: threadlens's postings, MiniSearch,
# FlexSearch and Orama given the same terms — LoCoMo evidence and answers, search cost on a 10k-entry
# thread, bytes (Node; ~3 min). Writes bench-results/search-engines.json.
step "recall search engines (packages/core/bench/quality/search-libraries.bench.ts)"
"$TSX" packages/core/bench/quality/search-libraries.bench.ts

# What recall costs on big threads: index build, update per append, projection with and without
# recall on 1k- and 10k-entry synthetic threads (Node; ~1 min). Writes bench-results/recall.json.
step "recall cost (packages/core/bench/recall.bench.ts)"
"$TSX" packages/core/bench/recall.bench.ts

# What the one definition of a valid entry costs on append, and how fast hostile input is refused
# (Node; ~15 s). Writes bench-results/entry-validation.json.
step "entry validation (packages/core/bench/entry-validation.bench.ts)"
"$TSX" packages/core/bench/entry-validation.bench.ts

# Store persistence in headless Chromium through a harness page: append latency, appendMany of 10k and
# 100k entries vs raw IndexedDB put, opening a 100k-entry thread + first projection (~1–2 min).
# Writes bench-results/store.json.
step "store persistence in headless Chromium (packages/store/bench/store.bench.ts)"
bash .ci/setup.sh --with-chromium
THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}" "$TSX" packages/store/bench/store.bench.ts

# Devtools in headless Chromium against the built demo: download size with the panel closed vs open,
# panel open time, append → painted and the longest task in a 100-append burst on a 10k-entry thread
# (~15 s, building the demo included). Writes bench-results/devtools.json.
bash .ci/setup.sh --with-chromium
export THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}"
step "devtools (devtools/bench/devtools.bench.ts)"
"$TSX" devtools/bench/devtools.bench.ts

# The demo's first load at / (gzip, from the build the devtools bench just made) against the 200 KB
# goal, the tokenizer and other lazy chunks apart (a second). Writes bench-results/first-load-size.json.
step "demo first-load size (demo/bench/first-load-size.ts)"
"$TSX" demo/bench/first-load-size.ts

# Sync in Node with in-memory stores against the reference server in this process: first push and
# catch-up of a 10,000-entry thread, one appended entry to acknowledged and read back (~5 s).
step "sync in Node, in-memory stores (packages/sync/bench/sync.bench.ts)"
"$TSX" packages/sync/bench/sync.bench.ts
# Sync in headless Chromium through the sync harness page (packages/sync/src/testing/harness):
# three devices that never synced each read a 10,000-entry thread into IndexedDB from a loopback
# server, against the 2 s goal, then one appended message to the server's acknowledgement, against
# the 50 ms goal (~40 s). Writes bench-results/sync-catch-up.json.
step "sync catch-up and steady push in headless Chromium (packages/sync/bench/catch-up.browser.bench.ts)"
THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}" "$TSX" packages/sync/bench/catch-up.browser.bench.ts

# The session loop's own cost per model call in headless Chromium through the agent harness page
# (packages/agent/src/testing/harness): projection, thread writes and bookkeeping on 1k- and
# 10k-entry threads, with model streaming, tool execution and summarizing timed and taken out
# (~20 s). Writes bench-results/agent.json.
step "agent loop overhead in headless Chromium (packages/agent/bench/loop.bench.ts)"
THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}" "$TSX" packages/agent/bench/loop.bench.ts
