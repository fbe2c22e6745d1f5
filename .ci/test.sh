#!/usr/bin/env bash
# `npm test`: installs what is missing, then runs every test. Any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --with-chromium
export THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}"

mkdir -p .test-reports
rm -f .test-reports/vitest.json .test-reports/e2e.json .test-reports/consumers.json

echo "== typecheck (tsc -b: every package project, core without DOM or Node types)"
# One checker per project: projects already build side by side, and on 2 shared cores more threads
# only contend (cold: ~25-33 s against ~49-54 s with the default 4 checkers; unchanged tree: ~1 s).
node_modules/.bin/tsc -b --checkers 1
echo "== source limits: files over 300 lines and functions over 80 need a reason (.ci/source-limits.ts)"
node_modules/.bin/tsx .ci/source-limits.ts
echo "== architecture: imports go down the layers, dependencies declared, the concept table true (.ci/architecture.ts)"
node_modules/.bin/tsx .ci/architecture.ts
echo "== format (prettier --check, .prettierrc.json: TypeScript and JavaScript; npm run format rewrites)"
node_modules/.bin/prettier --check --log-level warn '**/*.{ts,tsx,js,mjs}'
echo "== lint (oxlint, .oxlintrc.json: correctness rules, unused imports, unsafe optional chaining; under a second)"
node_modules/.bin/oxlint --deny-warnings packages devtools demo e2e .ci
echo "== packages: tsdown build, pnpm pack, publint --strict, Are the Types Wrong"
PACK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/threadlens-packs.XXXXXX")"
trap 'rm -rf "$PACK_DIR"' EXIT
bash .ci/packages.sh "$PACK_DIR"
echo "== unit, property and real-browser tests (vitest: node + chromium projects)"
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=.test-reports/vitest.json
echo "== end-to-end tests (playwright, chromium, against the built demo)"
PLAYWRIGHT_JSON_OUTPUT_NAME=.test-reports/e2e.json node_modules/.bin/playwright test --reporter=list,json
echo "== consumer apps from the packed tarballs, outside the repo (npm; Vite + React 18 and 19, Next.js, Node, TypeScript)"
node_modules/.bin/tsx e2e/consumers/run-consumers.ts "$PACK_DIR"

# One closing line over the runners, from their own reports.
node -e '
const fs = require("fs")
const unit = JSON.parse(fs.readFileSync(".test-reports/vitest.json", "utf8"))
const e2e = JSON.parse(fs.readFileSync(".test-reports/e2e.json", "utf8")).stats
const consumers = JSON.parse(fs.readFileSync(".test-reports/consumers.json", "utf8"))
const passed = unit.numPassedTests + e2e.expected + consumers.passed
const failed = unit.numFailedTests + e2e.unexpected + e2e.flaky + consumers.failed
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
if (passed === 0 || failed > 0) process.exit(1)
'
