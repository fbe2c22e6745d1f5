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

# Core projection vs LangChain trimMessages (Node; ~3–4 min on 2 cores, most of it waiting out
# trimMessages at 100k entries; THREADLENS_BENCH_LIMIT_S sets its per-call limit, default 60).
step "core projection (packages/core/bench/projection.bench.ts)"
"$TSX" packages/core/bench/projection.bench.ts

# Prompt-cache prefix reuse over a scripted 300-turn session (threadlens policies vs trimMessages), and
# compact() on a 10k-entry thread (Node; ~10–15 s).
step "context quality (packages/core/bench/context-quality.bench.ts)"
"$TSX" packages/core/bench/context-quality.bench.ts
