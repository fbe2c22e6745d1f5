#!/usr/bin/env bash
# `npm run screenshots`: refreshes docs/screenshots from the built demo in headless Chromium. The
# specs that take the docs' screenshots run with THREADLENS_DOCS_SCREENSHOTS=1, which copies each
# one from test-results/ into docs/screenshots; a plain `npm test` leaves docs/ untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --with-chromium
export THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}"
export THREADLENS_DOCS_SCREENSHOTS=1
node_modules/.bin/playwright test \
  e2e/chat-first-minute.spec.ts e2e/chat-tools.spec.ts e2e/chat-long-session.spec.ts e2e/chat-errors.spec.ts \
  e2e/chat-narrow.spec.ts e2e/chat-reload.spec.ts e2e/chat-dock.spec.ts e2e/devtools-layout.spec.ts
ls -l docs/screenshots
