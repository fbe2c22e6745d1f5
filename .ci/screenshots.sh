#!/usr/bin/env bash
# `npm run screenshots`: refreshes docs/screenshots from the built demo in headless Chromium, at a
# device scale of 1. The specs that take the docs' screenshots run with THREADLENS_DOCS_SCREENSHOTS=1,
# which copies each one from test-results/ into docs/screenshots; a plain `npm test` leaves docs/
# untouched. The layout specs take most of them (the chat beside its docked panel and after a long
# session from views-layout, every devtools tab cropped to the panel from devtools-layout), so what
# the docs show is what the layout checks passed on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh --with-chromium
export THREADLENS_CHROMIUM="${THREADLENS_CHROMIUM:-$(command -v chromium)}"
export THREADLENS_DOCS_SCREENSHOTS=1
node_modules/.bin/playwright test e2e/views-layout.spec.ts e2e/devtools-layout.spec.ts e2e/chat-tools.spec.ts e2e/chat-errors.spec.ts
ls -l docs/screenshots
