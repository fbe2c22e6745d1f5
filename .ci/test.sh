#!/usr/bin/env bash
# `npm test`: installs what is missing, then runs every test. Any failure exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --with-chromium
export THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}"

echo "== typecheck"
node_modules/.bin/tsc -p tsconfig.json
echo "== unit, property and real-browser tests (vitest: node + chromium projects)"
node_modules/.bin/vitest run
echo "== end-to-end tests (playwright, chromium, against the built demo)"
node_modules/.bin/playwright test
